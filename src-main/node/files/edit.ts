/**
 * Reading, saving and creating instruction and memory files from the Files view: the one door through which the
 * app (not the agent) writes them.
 *
 * - Only files the prompt builder lists (and the few the view offers to create) can be read or written, and only
 *   inside the project root or ~/.loupe, checked on the real path (paths.ts).
 * - A save states the version it was edited from (`baseSha256`). If the file changed on disk since, nothing is
 *   written: the user's text is kept in the data folder and the disk's text comes back to be merged. A save that
 *   goes through keeps the version it replaced. Either way both versions stay recoverable (backups.ts).
 * - If the file changed on disk into one the view cannot edit (over 1 MB, binary, not valid UTF-8, not a regular
 *   file, unreadable), there is no text to merge with: the user's text is kept first, then the save is refused
 *   (`conflict`) with a message saying what changed and where the text was kept.
 * - The write is atomic (temporary file + rename, node/fs/atomic-write.ts): a reader sees the old file or the
 *   new one.
 * - Saves of one file are taken one at a time, under the lock every writer of instruction and memory files in this
 *   process shares (node/fs/path-lock.ts, keyed by the real path): two windows saving from the same version get one
 *   `saved` and one `conflict`, never two `saved`. Between the check and the rename the backup is kept and the new
 *   text is flushed to disk (milliseconds), so the disk is read and compared again once the new text is on disk, just
 *   before the rename; a change found then is a `conflict` like any other. What is left is the instant between that
 *   second read and the rename: a write by another program landing there is replaced, and it is in no backup (the
 *   backup holds the version before it).
 * - Files over 1 MB, binary files and invalid UTF-8 are refused with a message; the builder would skip them, and
 *   saving them from a text editor would corrupt them.
 * - The text is the file's exact text: a UTF-8 byte-order mark stays in it as U+FEFF, so a save writes it back, and
 *   a mark added or removed on disk is a change like any other. (The prompt builder leaves the mark out of what it
 *   sends; safe-read.ts `keepBom`.)
 */
import { createHash } from 'node:crypto'
import { MAX_INSTRUCTION_FILE_BYTES } from '../../engine/prompt'
import { locate, nodeFileAccess, readLocated } from '../instructions'
import { writeFileAtomic } from '../fs/atomic-write'
import { withFileLock } from '../fs/path-lock'
import { keepVersion } from './backups'
import { listInstructionFiles, type Creatable, type FileNode, type FilesListing } from './listing'
import { confine, type FileRoots } from './paths'
import { isNestedFileName, MAX_NESTED_DEPTH } from './nested'
import { ioCause } from '../fs/io-cause'

export type FilesErrorCode = 'not_found' | 'permission_denied' | 'invalid_input' | 'unsupported' | 'conflict' | 'io_error'

export class FilesError extends Error {
  constructor(
    readonly code: FilesErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export interface FilesContext extends FileRoots {
  /** Where backups and the user's refused text are kept. */
  readonly dataDir: string
  readonly now: () => number
  /**
   * Paths this view opened as existing, editable files of the project (the listing named them then): one deleted on
   * disk since is no longer listed, yet it may still be read (as absent) and saved, which writes it back. Each is
   * still confined to the root and ~/.loupe like any other path.
   */
  readonly opened?: ReadonlySet<string>
}

export interface OpenedFile {
  readonly path: string
  readonly absPath: string
  /** Empty for a file that does not exist yet. */
  readonly text: string
  readonly exists: boolean
  /** sha256 of the text (hex), or null when the file does not exist: what a save must name as its base. */
  readonly sha256: string | null
  /**
   * For a file the listing offers to create that does not exist yet: the text a new one starts with. The view opens
   * it as an unsaved draft, priced like any edit; the first save creates the file (decision 0027).
   */
  readonly startingText?: string
}

export type SaveResult =
  | { readonly status: 'saved'; readonly path: string; readonly sha256: string; readonly backupPath: string | null; readonly charsBefore: number; readonly charsAfter: number }
  | { readonly status: 'unchanged'; readonly path: string; readonly sha256: string }
  /** The file changed on disk since it was opened: nothing was written. */
  | { readonly status: 'conflict'; readonly path: string; readonly disk: { readonly text: string; readonly sha256: string | null; readonly exists: boolean }; readonly minePath: string }

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

function flatten(nodes: ReadonlyArray<FileNode>): FileNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)])
}

/** The paths the view may open (`read`) and write (`write`), from the listing. */
export function allowedPaths(listing: FilesListing): { read: Set<string>; write: Set<string>; creatable: Map<string, Creatable> } {
  const nodes = flatten([...listing.instructions, ...listing.memory])
  const creatable = new Map(listing.creatable.map((c) => [c.path, c]))
  return {
    read: new Set([...nodes.map((n) => n.path), ...creatable.keys()]),
    write: new Set([...nodes.filter((n) => n.editable).map((n) => n.path), ...creatable.keys()]),
    creatable,
  }
}

/**
 * The paths the view may open and write, for `path`: the session block's files first, and the walk for nested
 * instruction files (node/files/nested.ts, a `readdir` of every folder) only for a path that is not among them, so
 * opening or saving CLAUDE.md does not walk the project.
 */
async function allowedFor(ctx: FilesContext, path: string): Promise<ReturnType<typeof allowedPaths>> {
  const options = { root: ctx.root, loupeHome: ctx.loupeHome, homeDir: ctx.homeDir, now: ctx.now() }
  const base = allowedPaths(await listInstructionFiles({ ...options, nested: false }))
  return base.read.has(path) ? base : allowedPaths(await listInstructionFiles(options))
}

/** A file that cannot be edited; `changed` says what it became, for a save that found it so on disk. */
class UneditableFile extends FilesError {
  constructor(
    code: FilesErrorCode,
    message: string,
    readonly changed: string,
  ) {
    super(code, message)
  }
}

/** Reads the file at `realPath` as editable text, or says why it cannot be edited. */
async function readText(path: string, realPath: string): Promise<{ text: string; sha256: string }> {
  const located = await locate(realPath, [realPath])
  if (located.kind === 'missing') throw new UneditableFile('not_found', `${path} does not exist any more`, 'it was deleted')
  if (located.kind === 'unreadable') {
    throw new UneditableFile('unsupported', `${path} cannot be edited here: it could not be read (${located.detail})`, `it can no longer be read (${located.detail})`)
  }
  if (located.kind !== 'file') throw new UneditableFile('unsupported', `${path} is not a regular file`, 'it is no longer a regular file')
  // A byte-order mark is kept (U+FEFF at the start of the text): it is written back as it was, and one added or
  // removed on disk changes the hash a save is checked against.
  const read = await readLocated(located.realPath, nodeFileAccess, { keepBom: true })
  if (!read.ok) {
    const [why, changed] =
      read.reason === 'too_large'
        ? ['it is larger than 1 MB (the prompt builder skips it too)', 'it is now larger than 1 MB (the prompt builder skips it too)']
        : read.reason === 'binary'
          ? ['it is a binary file', 'it is now a binary file']
          : [`it could not be read (${read.detail})`, `it can no longer be read (${read.detail})`]
    throw new UneditableFile('unsupported', `${path} cannot be edited here: ${why}`, changed)
  }
  if (read.replacedInvalidUtf8) {
    throw new UneditableFile(
      'unsupported',
      `${path} cannot be edited here: it is not valid UTF-8, and saving it from a text editor would change bytes you did not touch`,
      'it is no longer valid UTF-8, and saving over it would change bytes you did not touch',
    )
  }
  return { text: read.text, sha256: sha256(read.text) }
}

/** What happened to the file on disk, for a save it refused. */
function changedWords(err: FilesError): string {
  return err instanceof UneditableFile ? err.changed : 'it is no longer a file the Files view can edit'
}

/**
 * Why `path` is not opened, in words true of it. A nested instruction file deeper than the walk goes (MAX_NESTED_DEPTH)
 * is one the loop still sends the agent when it reads a file in its folder: it is said to be past the view's depth, not
 * to be no instruction file.
 */
function notListed(path: string): FilesError {
  const segments = path.split('/')
  const name = segments[segments.length - 1]!.toLowerCase()
  const levels = segments.length - 1
  if (levels > MAX_NESTED_DEPTH && !path.startsWith('/') && !path.startsWith('~') && !segments.includes('..') && isNestedFileName(name)) {
    const dir = segments.slice(0, -1).join('/')
    return new FilesError(
      'permission_denied',
      `${path} is ${levels} folder levels below the project: the Files view lists and opens nested instruction files only down to ${MAX_NESTED_DEPTH} levels, ` +
        `though the agent is still sent this one the first time it reads or edits a file under ${dir}/. Edit it in another editor.`,
    )
  }
  return new FilesError('permission_denied', `${path} is not an instruction or memory file of this project: the Files view only opens the files the prompt builder lists`)
}

async function confined(ctx: FilesContext, path: string, mode: 'read' | 'write') {
  const allowed = await allowedFor(ctx, path)
  // A file opened before and gone from the listing since may be read: as absent when it was deleted.
  const listed = (mode === 'read' ? allowed.read : allowed.write).has(path)
  if (!listed && !(mode === 'read' && (ctx.opened?.has(path) ?? false))) throw notListed(path)
  const where = await confine(path, ctx)
  if (!where.ok) throw new FilesError(where.code, where.message)
  return { ...where, listed, creatable: allowed.creatable.get(path) ?? null }
}

export async function openFile(ctx: FilesContext, path: string): Promise<OpenedFile> {
  const where = await confined(ctx, path, 'read')
  if (!where.exists) {
    const absent = { path, absPath: where.absPath, text: '', exists: false, sha256: null }
    return where.creatable ? { ...absent, startingText: STARTING_TEXT[where.creatable.kind] } : absent
  }
  // Opened before, no longer listed, and there again: not a file of the project's instructions any more.
  if (!where.listed) throw notListed(path)
  const { text, sha256: sha } = await readText(path, where.realPath)
  return { path, absPath: where.absPath, text, exists: true, sha256: sha }
}

export async function saveFile(ctx: FilesContext, input: { path: string; text: string; baseSha256: string | null }): Promise<SaveResult> {
  const bytes = Buffer.byteLength(input.text, 'utf8')
  if (bytes > MAX_INSTRUCTION_FILE_BYTES) throw new FilesError('invalid_input', `The text is ${bytes.toLocaleString('en-US')} bytes: over the 1 MB the prompt builder reads, so it would be skipped`)
  if (input.text.includes('\0')) throw new FilesError('invalid_input', 'The text contains a NUL character: instruction files are text')
  const allowed = await allowedFor(ctx, input.path)
  // A file this view opened that was deleted on disk since: saving it writes it back, only where it is absent (and
  // confine below keeps it inside the root or ~/.loupe). Saved against the version it was opened from, the absent
  // file is the ordinary conflict below; against "no file", the text is written.
  const recreating = !allowed.read.has(input.path) && (ctx.opened?.has(input.path) ?? false)
  const writable = allowed.write.has(input.path) || recreating
  // A listed file that is not editable (over 1 MB, binary, unreadable) is one that changed on disk since it was
  // opened, since only an editable file opens: its text is kept below, then the save is refused.
  if (!writable && !allowed.read.has(input.path)) throw notListed(input.path)
  const where = await confine(input.path, ctx)
  if (!where.ok) throw new FilesError(where.code, where.message)
  if (where.scope === 'project' && ctx.projectReadOnly) throw new FilesError('permission_denied', ctx.projectReadOnly)
  if (recreating && where.exists) throw notListed(input.path)
  // One save of a file at a time, shared with every other writer of instruction and memory files in this process
  // (the remember tool, the file memory extension): keyed by the real path, so a link and its target wait for each
  // other. A second save from the same version then reads the first one's text and answers `conflict`.
  return withFileLock(where.realPath, async () => {
    // Read whether or not the file existed when it was confined: a save queued before this one may have created it.
    const disk = await diskVersion(input.path, where.realPath)
    if (!writable && disk.unusable === null) disk.unusable = new FilesError('conflict', `${input.path} is no longer a file the Files view can edit`)
    if (disk.unusable !== null || (disk.current?.sha256 ?? null) !== input.baseSha256) return refuseChanged(ctx, input, where.realPath, disk)
    const current = disk.current
    const next = sha256(input.text)
    if (current !== null && current.sha256 === next) return { status: 'unchanged', path: input.path, sha256: next } satisfies SaveResult
    const backupPath = current !== null ? await keepVersion(ctx.dataDir, where.realPath, 'backup', current.text, ctx.now()) : null
    // Another program may write the file while the backup is kept and the new text is flushed: the disk is read again
    // once the new text is on disk, just before it takes the file's name, and a change found there is a conflict too.
    let changed: DiskVersion | null = null
    try {
      await writeFileAtomic(where.realPath, input.text, {
        beforeRename: async () => {
          const again = await diskVersion(input.path, where.realPath)
          if (again.unusable !== null || (again.current?.sha256 ?? null) !== (current?.sha256 ?? null)) {
            changed = again
            throw new Error('changed on disk before the rename')
          }
        },
      })
    } catch (err) {
      if (changed !== null) return refuseChanged(ctx, input, where.realPath, changed)
      throw new FilesError('io_error', `${input.path} could not be written: ${ioCause(err)}`)
    }
    return { status: 'saved', path: input.path, sha256: next, backupPath, charsBefore: current?.text.length ?? 0, charsAfter: input.text.length } satisfies SaveResult
  })
}

/** The file's text on disk (null when it does not exist), or why it can no longer be edited. */
interface DiskVersion {
  current: { text: string; sha256: string } | null
  unusable: FilesError | null
}

async function diskVersion(path: string, realPath: string): Promise<DiskVersion> {
  try {
    return { current: await readText(path, realPath), unusable: null }
  } catch (err) {
    if (!(err instanceof FilesError)) throw err
    // Deleted (or never made): the ordinary conflict with an absent file, or the text a new file starts with.
    return { current: null, unusable: err.code === 'not_found' ? null : err }
  }
}

/**
 * A save refused because the disk is not the version it was made from: the text sent is kept first, so it is never
 * lost. The disk's text comes back to be merged, or, when the disk changed into something that cannot be edited, the
 * save is refused with a message saying what changed and where the text was kept.
 */
async function refuseChanged(ctx: FilesContext, input: { path: string; text: string }, realPath: string, disk: DiskVersion): Promise<SaveResult> {
  const minePath = await keepVersion(ctx.dataDir, realPath, 'mine', input.text, ctx.now())
  if (disk.unusable !== null) throw new FilesError('conflict', `${input.path} changed on disk: ${changedWords(disk.unusable)}. Nothing was written; your text was kept in ${minePath}`)
  const { current } = disk
  return { status: 'conflict', path: input.path, disk: { text: current?.text ?? '', sha256: current?.sha256 ?? null, exists: current !== null }, minePath }
}

/** The text a file the listing offers starts with, as the draft the view opens for it (openFile). */
const STARTING_TEXT: Readonly<Record<Creatable['kind'], string>> = {
  instructions: '# Instructions for agents\n\n## Build and test\n\n- \n\n## Conventions\n\n- \n',
  global_instructions: '# My instructions for every project\n\n- \n',
  project_memory: '# Project memory\n\n',
  user_memory: '# User memory\n\n',
}
