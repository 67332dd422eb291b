/**
 * The Files view's side in the main process (docs/inspector.md "Files"): the instruction and memory files as the
 * prompt builder resolved them, and the one door through which the app reads and saves them (a save creates a file the
 * listing offers).
 */
export { listInstructionFiles, describe as describeFiles, sessionBlockFigures } from './listing'
export type { FilesListing, FileNode, FileKind, FileStatus, Creatable, SessionBlockFigures } from './listing'
export { openFile, saveFile, allowedPaths, sha256, FilesError } from './edit'
export type { FilesContext, OpenedFile, SaveResult, FilesErrorCode } from './edit'
export { confine, absoluteFor } from './paths'
export type { FileRoots, Confined } from './paths'
export { keepVersion, listVersions, backupFolder, BACKUP_FOLDER, MAX_VERSIONS_PER_FILE } from './backups'
export { gatherWithDraft, draftFileAccess } from './draft'
export type { DraftOptions } from './draft'
