/** Claude Code sessions on disk: finding, reading and loading them (docs/claude-code-import.md). */
export { defaultProjectsDir, listSessionFiles } from './locate'
export type { SessionFileInfo, SessionListing } from './locate'
export { readTranscriptFile, DEFAULT_MAX_FILE_BYTES } from './read'
export type { ReadResult, ReadOptions, ReadErrorKind } from './read'
export { loadSession, describeSession } from './load'
export type { LoadResult, LoadOptions, SessionDescription } from './load'
export { runImportCli } from './cli'
export type { CliIo, CliOptions } from './cli'
