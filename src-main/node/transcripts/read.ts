/**
 * The one door through which transcript files are read: resolves symlinks and refuses anything outside the folder
 * it was asked to stay in, checks the type and the size before opening, and streams the bytes into the incremental
 * parser so a large file is never held as one string.
 *
 * A FIFO, device or socket named `*.jsonl` is refused before it is opened (opening a FIFO for reading waits for a
 * writer, forever, on one of libuv's four pool threads); the open itself uses O_NONBLOCK and the type is checked
 * again on the descriptor, for a file swapped in between.
 */
import { constants } from 'node:fs'
import { open, realpath, stat } from 'node:fs/promises'
import { isAbsolute, relative } from 'node:path'
import { TranscriptParser, type ParsedTranscript } from '../../engine/transcripts/parser'
import { describeReadError, kindOf } from '../fs/regular-file'

/** Far above any real session (the largest spotter session is 3.5 MB); a guard against reading a wrong file whole. */
export const DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024
const CHUNK_BYTES = 1024 * 1024

export type ReadErrorKind = 'not_found' | 'not_a_file' | 'too_large' | 'outside_root' | 'io'

export type ReadResult =
  | { readonly ok: true; readonly parsed: ParsedTranscript; readonly bytes: number; readonly realPath: string }
  | { readonly ok: false; readonly error: { readonly kind: ReadErrorKind; readonly message: string } }

export interface ReadOptions {
  readonly maxFileBytes?: number
  readonly maxLineChars?: number
  /**
   * When set, the file (after resolving symlinks) must lie inside this folder (after resolving symlinks): the Claude
   * Code projects folder listed, or the folder of the session whose subagent files are read.
   */
  readonly root?: string
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

function failure(kind: ReadErrorKind, message: string): ReadResult {
  return { ok: false, error: { kind, message } }
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined
}

/** The folder a file must stay in, with its links resolved; a failure that names it when it is missing. */
async function realFolder(folder: string, path: string): Promise<{ ok: true; path: string } | { ok: false; failure: ReadResult }> {
  try {
    const real = await realpath(folder)
    if ((await stat(real)).isDirectory()) return { ok: true, path: real }
    return { ok: false, failure: failure('not_found', `The projects folder ${folder} is not a folder: ${path} is read only from inside one`) }
  } catch (err) {
    const code = errorCode(err)
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, failure: failure('not_found', `The projects folder ${folder} does not exist: ${path} is read only from inside it`) }
    return { ok: false, failure: failure('io', describeReadError(folder, err)) }
  }
}

/**
 * Reads and parses one transcript. Reads the file as it was when opened: a session Claude Code is still writing
 * may end in a half-written line, which the parser counts as `truncated_last_line`. Never throws.
 */
export async function readTranscriptFile(path: string, options: ReadOptions = {}): Promise<ReadResult> {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
  // The folder to stay in is resolved apart from the file: when it is missing, that is what is said, not that the
  // file is (an import from the default projects folder on a machine without Claude Code).
  let root: string | null = null
  if (options.root !== undefined) {
    const checked = await realFolder(options.root, path)
    if (!checked.ok) return checked.failure
    root = checked.path
  }
  let real: string
  try {
    real = await realpath(path)
    if (root !== null && !isInside(root, real)) return failure('outside_root', `${path} resolves to ${real}, outside ${options.root}`)
  } catch (err) {
    const code = errorCode(err)
    if (code === 'ENOENT' || code === 'ENOTDIR') return failure('not_found', `${path} does not exist`)
    return failure('io', describeReadError(path, err))
  }
  try {
    const info = await stat(real)
    if (!info.isFile()) return failure('not_a_file', `${path} is not a regular file (${kindOf(info)})`)
  } catch (err) {
    return failure(errorCode(err) === 'ENOENT' ? 'not_found' : 'io', describeReadError(path, err))
  }
  let handle
  try {
    handle = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (err) {
    return failure(errorCode(err) === 'ENOENT' ? 'not_found' : 'io', describeReadError(path, err))
  }
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) return failure('not_a_file', `${path} is not a regular file (${kindOf(stat)})`)
    if (stat.size > maxFileBytes) return failure('too_large', `${path} is ${stat.size} bytes, over the ${maxFileBytes}-byte limit`)
    const parser = new TranscriptParser(options.maxLineChars === undefined ? {} : { maxLineChars: options.maxLineChars })
    // A streaming decoder keeps a multi-byte character split across two chunks intact. Invalid bytes become U+FFFD:
    // outside a JSON string the line then fails to parse and is counted as malformed; inside one (a prompt, a tool
    // result) the line is used, with U+FFFD where the bytes were, as an editor shows them. Nothing is thrown.
    const decoder = new TextDecoder('utf-8')
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, stat.size)))
    let position = 0
    while (position < stat.size) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, stat.size - position), position)
      if (bytesRead === 0) break
      position += bytesRead
      parser.push(decoder.decode(buffer.subarray(0, bytesRead), { stream: true }))
    }
    parser.push(decoder.decode())
    return { ok: true, parsed: parser.end(), bytes: position, realPath: real }
  } catch (err) {
    return failure('io', describeReadError(path, err))
  } finally {
    await handle.close()
  }
}
