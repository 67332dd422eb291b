/**
 * A range of lines from a file too large to read whole (read_file with offset/limit on a file over
 * READ_MAX_FILE_BYTES). Lines have no index, so the file is read from its start in chunks of CHUNK_BYTES, counting
 * line breaks, until the wanted lines are reached and kept; memory stays at one chunk plus the kept lines, each kept to
 * at most LINE_KEEP_BYTES (a line of gigabytes is shown cut, with its size in bytes). The reads are asynchronous,
 * one chunk at a time, so the main process, where the tools run, is never held for longer than it takes to count the
 * line breaks of one chunk.
 *
 * Reaching the wanted lines is not bounded: the model asked for them. Counting the lines after them, for the total
 * the answer names, stops once `countMaxBytes` of the file have been read, and the answer says how far it counted.
 * Lines are counted as splitLines counts them: a final line break does not start another line, a `\r` before the
 * `\n` is not part of the line.
 */
import type { FileHandle } from 'node:fs/promises'
import { READ_MAX_LINE_CHARS } from '../../engine/tools/limits'

/** Bytes read at a time. */
export const CHUNK_BYTES = 1024 * 1024
/**
 * Bytes kept of one line: enough for READ_MAX_LINE_CHARS characters however they are encoded (at most 4 bytes for
 * 2 UTF-16 units), and an incomplete character at the cut falls past what is shown.
 */
export const LINE_KEEP_BYTES = READ_MAX_LINE_CHARS * 4

export interface LineRangeRequest {
  readonly startLine: number
  /** Most lines kept. */
  readonly maxLines: number
  /** Stop keeping lines once the kept text passes this many characters (the answer cannot hold more). */
  readonly maxChars: number
  /** Stop counting the lines after the range once this many bytes of the file have been read. */
  readonly countMaxBytes: number
  readonly signal?: AbortSignal
}

export interface KeptLine {
  /** The line's text, decoded (invalid bytes as U+FFFD), without its line break; its first LINE_KEEP_BYTES only when cut. */
  readonly text: string
  /** The line's length in bytes when it was longer than LINE_KEEP_BYTES and cut, else null. */
  readonly cutFromBytes: number | null
}

export interface LineRangeRead {
  /** Lines startLine.. in order; empty when the file has fewer than startLine lines. */
  readonly lines: ReadonlyArray<KeptLine>
  /** Whether a kept line held bytes that are not valid UTF-8. */
  readonly invalidUtf8: boolean
  /** Lines in the file, or null when counting stopped at countMaxBytes before the end. */
  readonly totalLines: number | null
  /** Lines counted, and the bytes of the file read to count them (the whole file when totalLines is known). */
  readonly countedLines: number
  readonly countedBytes: number
  /** The read stopped because `signal` was aborted. */
  readonly aborted: boolean
}

const NEWLINE = 0x0a
const CR = 0x0d

/** `bytes` less an incomplete UTF-8 sequence at its end (a line cut in the middle of a character). */
function withoutPartialCharacter(bytes: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!
    if ((byte & 0xc0) !== 0x80) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
      return needed > back ? bytes.subarray(0, bytes.length - back) : bytes
    }
  }
  return bytes
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}

/** Reads `request`'s lines from `handle`, a regular file of `size` bytes (see the module comment). */
export async function readLineRange(handle: FileHandle, size: number, request: LineRangeRequest): Promise<LineRangeRead> {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
  const lines: KeptLine[] = []
  let invalidUtf8 = false
  let keptChars = 0
  /** Lines whose end has been read; the line being read is number `ended + 1`. */
  let ended = 0
  let position = 0
  let lastByte = -1
  // The line being read, while it is one of the wanted lines: its first bytes and its length.
  let parts: Buffer[] = []
  let partBytes = 0
  let lineBytes = 0
  let keeping = request.startLine === 1
  let done = false

  const endLine = (): void => {
    const whole = Buffer.concat(parts, partBytes)
    const cut = lineBytes > whole.length
    let bytes = cut ? withoutPartialCharacter(whole) : whole
    if (!cut && bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1)
    if (!isUtf8(bytes)) invalidUtf8 = true
    const text = bytes.toString('utf8')
    lines.push({ text, cutFromBytes: cut ? lineBytes : null })
    keptChars += Math.min(text.length, READ_MAX_LINE_CHARS) + 16
    parts = []
    partBytes = 0
    lineBytes = 0
    if (lines.length >= request.maxLines || keptChars > request.maxChars) done = true
  }

  const keep = (bytes: Buffer): void => {
    lineBytes += bytes.length
    const room = LINE_KEEP_BYTES - partBytes
    if (room <= 0) return
    // Copied: the chunk is reused by the next read.
    const part = Buffer.from(bytes.subarray(0, room))
    parts.push(part)
    partBytes += part.length
  }

  while (position < size) {
    if (request.signal?.aborted === true) {
      return { lines, invalidUtf8, totalLines: null, countedLines: ended, countedBytes: position, aborted: true }
    }
    if (done && position >= request.countMaxBytes) break
    const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK_BYTES, size - position), position)
    if (bytesRead === 0) break
    const data = chunk.subarray(0, bytesRead)
    let from = 0
    while (from < data.length) {
      const at = data.indexOf(NEWLINE, from)
      if (done) {
        if (at === -1) break
        ended++
        from = at + 1
        continue
      }
      const end = at === -1 ? data.length : at
      if (keeping) keep(data.subarray(from, end))
      if (at === -1) break
      if (keeping) endLine()
      ended++
      from = at + 1
      if (!done) keeping = ended + 1 >= request.startLine
    }
    lastByte = data[data.length - 1]!
    position += bytesRead
  }
  const complete = position >= size
  // The last line, when the file does not end with a line break.
  const unfinished = complete && lastByte !== -1 && lastByte !== NEWLINE
  if (unfinished) {
    if (keeping && !done) endLine()
    ended++
  }
  return { lines, invalidUtf8, totalLines: complete ? ended : null, countedLines: ended, countedBytes: position, aborted: false }
}
