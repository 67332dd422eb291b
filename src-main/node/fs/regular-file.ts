/**
 * Reading a file the app did not create: a project file, a memory file, a .gitignore, git's metadata. Any of them
 * may be a named pipe (FIFO), a device (`/dev/zero`, `/dev/stdin`), a socket or a folder, reached directly or
 * through a symbolic link; a plain read of a FIFO blocks forever (and holds one of libuv's four thread-pool
 * threads while it does), a read of `/dev/zero` never ends. So the file's type is checked before it is opened,
 * it is opened with O_NONBLOCK (opening a FIFO then returns at once instead of waiting for a writer) and checked
 * again on the open descriptor (it may have been swapped in between), and no more than `maxBytes` are read.
 *
 * Errors carry the node error code (ENOENT, EACCES, ELOOP…) as they came, or one of this module's codes:
 * ENOTREGULAR (not a regular file) and ETOOLARGE (over the limit). `describeReadError` words any of them.
 */
import { groupDigits } from '../../engine/prompt/format'
import { constants, type BigIntStats, type Stats } from 'node:fs'
import { lstat, open, stat, type FileHandle } from 'node:fs/promises'

export class FileReadError extends Error {
  constructor(
    readonly code: 'ENOTREGULAR' | 'ETOOLARGE',
    message: string,
    /** What the path is, in words, for ENOTREGULAR ("a named pipe (FIFO)"); the size in bytes for ETOOLARGE. */
    readonly detail: string,
  ) {
    super(message)
  }
}

export interface ReadRegularOptions {
  /** Largest file read; a larger one is refused with ETOOLARGE before a byte is read. */
  readonly maxBytes: number
  /** Refuse a symbolic link at `path` itself (ENOTREGULAR) instead of following it. */
  readonly noFollow?: boolean
  /** How error messages name the file (default: `path`). */
  readonly shownAs?: string
}

/** What a non-regular file is, in words. */
export function kindOf(info: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isSymbolicLink'>): string {
  if (info.isDirectory()) return 'a folder'
  if (info.isFIFO()) return 'a named pipe (FIFO)'
  if (info.isSocket()) return 'a socket'
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device'
  if (info.isSymbolicLink()) return 'a symbolic link'
  return 'not a regular file'
}

function notRegular(path: string, info: Stats | BigIntStats): FileReadError {
  const kind = kindOf(info)
  return new FileReadError('ENOTREGULAR', `${path} is ${kind === 'not a regular file' ? kind : `${kind}, not a regular file`}`, kind)
}

function tooLarge(path: string, size: number, maxBytes: number): FileReadError {
  return new FileReadError('ETOOLARGE', `${path} is ${groupDigits(size)} bytes, over the ${groupDigits(maxBytes)}-byte limit`, String(size))
}

const NONBLOCK = constants.O_NONBLOCK ?? 0
const NOFOLLOW = constants.O_NOFOLLOW ?? 0

/**
 * The regular file at `path`, open for reading with the checks of the module comment (type before opening, O_NONBLOCK,
 * type again on the descriptor), and what the descriptor says of it. No size limit: for a caller that reads a part of
 * a file of any size. The caller closes the handle.
 */
export async function openRegularFile(
  path: string,
  options: Omit<ReadRegularOptions, 'maxBytes'> & { readonly maxBytes?: number },
): Promise<{ readonly handle: FileHandle; readonly info: BigIntStats }> {
  const name = options.shownAs ?? path
  const before = options.noFollow === true ? await lstat(path) : await stat(path)
  if (!before.isFile()) throw notRegular(name, before)
  // A file already over the limit is refused before it is opened.
  if (options.maxBytes !== undefined && before.size > options.maxBytes) throw tooLarge(name, before.size, options.maxBytes)
  const handle = await open(path, constants.O_RDONLY | NONBLOCK | (options.noFollow === true ? NOFOLLOW : 0))
  try {
    const info = await handle.stat({ bigint: true })
    if (!info.isFile()) throw notRegular(name, info)
    return { handle, info }
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** The bytes of the regular file at `path`, at most `maxBytes` of them; see the module comment for what is refused. */
export async function readRegularFile(path: string, options: ReadRegularOptions): Promise<Buffer> {
  const { maxBytes } = options
  const name = options.shownAs ?? path
  const { handle, info } = await openRegularFile(path, options)
  try {
    const size = Number(info.size)
    if (size > maxBytes) throw tooLarge(name, size, maxBytes)
    // One byte over the limit tells a file that grew since fstat from one exactly at the limit.
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, size + 1))
    let filled = 0
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    if (filled > maxBytes) throw tooLarge(name, filled, maxBytes)
    return buffer.subarray(0, filled)
  } finally {
    await handle.close()
  }
}

export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined
}

/** Why `path` could not be read, in words: the end of a sentence that starts with the path. */
export function describeReadError(path: string, error: unknown): string {
  if (error instanceof FileReadError) return error.message
  switch (errorCode(error)) {
    case 'ENOENT':
      return `${path} does not exist`
    case 'EACCES':
    case 'EPERM':
      return `${path} could not be read: permission denied`
    case 'ELOOP':
      return `${path} is a symbolic link loop`
    case 'EISDIR':
      return `${path} is a folder, not a regular file`
    case 'EMFILE':
    case 'ENFILE':
      return `${path} could not be read: too many files are open`
    default:
      return `${path} could not be read: ${error instanceof Error ? error.message : String(error)}`
  }
}

/**
 * The text of `bytes` when they are valid UTF-8, else null. A byte-order mark is kept as U+FEFF, so text written
 * back is byte for byte what was read, apart from the change made.
 */
export function decodeUtf8Exact(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return null
  }
}
