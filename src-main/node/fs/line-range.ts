/**
 * A range of lines from a file too large to read whole (read_file with offset/limit on a file over
 * READ_MAX_FILE_BYTES). A file has no index of its lines, so it is read in chunks of CHUNK_BYTES, counting line
 * breaks, until the wanted lines are reached and kept. Each read notes where lines start as it passes them, one mark a
 * chunk (`LineMarks`, kept per version of the file by `LineIndex`), so a later read of the same version starts at the
 * last mark before its lines instead of at the start of the file: paging through a multi-GB log costs about a chunk a
 * page after the first read that far, not the whole file up to the page. Marks are kept only for the exact version
 * read (device, inode, size, change times): a file that grew or changed is read from its start again; memory stays at one chunk plus the kept lines, each kept to
 * at most LINE_KEEP_BYTES (a line of gigabytes is shown cut, with its size in bytes). The reads are asynchronous,
 * one chunk at a time, so the main process, where the tools run, is never held for longer than it takes to count the
 * line breaks of one chunk.
 *
 * Reaching the wanted lines is not bounded: the model asked for them. Counting the lines after them, for the total
 * the answer names, stops once `countMaxBytes` of the file have been read, and the answer says how far it counted.
 * Lines are counted as splitLines counts them: a final line break does not start another line, a `\r` before the
 * `\n` is not part of the line.
 */
import type { BigIntStats } from 'node:fs'
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
  /** Where lines start in this version of the file, from earlier reads: used to start late, and added to. */
  readonly marks?: LineMarks
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
  /** Bytes read from the file by this read (less than `countedBytes` when it started at a mark). */
  readonly readBytes: number
}

/**
 * Least distance between two marks: a read passes one line break a chunk that could be marked, and two a chunk apart
 * may lie a few bytes less than a chunk apart. A read from a mark reads at most about this much before its lines.
 */
const MARK_SPACING_BYTES = CHUNK_BYTES / 2

/** Line `line` starts at byte `offset`. */
export interface LineMark {
  readonly line: number
  readonly offset: number
}

/**
 * Where lines start in one version of a file, as reads found them: about one mark a chunk, in order. Line 1 starts
 * at 0. Once a read has counted to the end, the file's line count too.
 */
export class LineMarks {
  private readonly marks: LineMark[] = [{ line: 1, offset: 0 }]
  totalLines: number | null = null

  /** How many marks are kept. */
  get size(): number {
    return this.marks.length
  }

  /** The last mark at or before `line`. */
  before(line: number): LineMark {
    return this.marks[this.indexBefore(line)]!
  }

  /** Notes that `line` starts at `offset`, unless a mark already lies within MARK_SPACING_BYTES of it. */
  note(line: number, offset: number): void {
    const at = this.indexBefore(line)
    const previous = this.marks[at]!
    const next = this.marks[at + 1]
    if (offset - previous.offset < MARK_SPACING_BYTES || (next !== undefined && next.offset - offset < MARK_SPACING_BYTES)) return
    this.marks.splice(at + 1, 0, { line, offset })
  }

  private indexBefore(line: number): number {
    let low = 0
    let high = this.marks.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if (this.marks[mid]!.line <= line) low = mid
      else high = mid - 1
    }
    return low
  }
}

/** Files whose marks are kept, least recently read dropped first. */
const INDEXED_FILES = 16

/** `LineMarks` by version of a file (see `fileVersion`), for the files read most recently. */
export class LineIndex {
  private readonly files = new Map<string, LineMarks>()

  constructor(private readonly limit = INDEXED_FILES) {}

  /** The marks of `version`, new when it has none (most recently used last). */
  marksOf(version: string): LineMarks {
    const known = this.files.get(version)
    this.files.delete(version)
    const marks = known ?? new LineMarks()
    this.files.set(version, marks)
    while (this.files.size > this.limit) this.files.delete(this.files.keys().next().value!)
    return marks
  }
}

/** One version of a file: the same inode with the same size and change times holds the same lines. */
export function fileVersion(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
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
  // Start at the last line start known before the wanted lines (the file's start when none is known).
  const start = request.marks?.before(request.startLine) ?? { line: 1, offset: 0 }
  /** Lines whose end has been read; the line being read is number `ended + 1`. */
  let ended = start.line - 1
  let position = start.offset
  let lastByte = -1
  // The line being read, while it is one of the wanted lines: its first bytes and its length.
  let parts: Buffer[] = []
  let partBytes = 0
  let lineBytes = 0
  let keeping = request.startLine === start.line
  let done = false
  const knownTotal = request.marks?.totalLines ?? null
  const result = (fields: Pick<LineRangeRead, 'totalLines' | 'aborted'>): LineRangeRead => ({
    lines,
    invalidUtf8,
    countedLines: ended,
    countedBytes: position,
    readBytes: position - start.offset,
    ...fields,
  })

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
    if (request.signal?.aborted === true) return result({ totalLines: null, aborted: true })
    // The lines after the range are counted for the total only: not when an earlier read counted them all.
    if (done && (knownTotal !== null || position >= request.countMaxBytes)) break
    const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK_BYTES, size - position), position)
    if (bytesRead === 0) break
    const data = chunk.subarray(0, bytesRead)
    // The last line break of this chunk: the line after it is marked for later reads.
    let lastBreak = -1
    let from = 0
    while (from < data.length) {
      const at = data.indexOf(NEWLINE, from)
      if (at !== -1) lastBreak = at
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
    if (lastBreak !== -1 && request.marks) request.marks.note(ended + 1, position - bytesRead + lastBreak + 1)
  }
  const complete = position >= size
  // The last line, when the file does not end with a line break.
  const unfinished = complete && lastByte !== -1 && lastByte !== NEWLINE
  if (unfinished) {
    if (keeping && !done) endLine()
    ended++
  }
  if (complete && request.marks) request.marks.totalLines = ended
  return result({ totalLines: complete ? ended : knownTotal, aborted: false })
}
