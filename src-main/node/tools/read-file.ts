/** read_file: line ranges, line numbers, and "unchanged since your last read" for content already shown. */
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import {
  BINARY_SNIFF_BYTES,
  READ_DEFAULT_LINE_LIMIT,
  READ_MAX_FILE_BYTES,
  READ_RANGE_COUNT_MAX_BYTES,
  TOOL_OUTPUT_MAX_CHARS,
} from '../../engine/tools/limits'
import { renderNumberedLines, renderPartlyCountedRead, renderReadResult, renderUnchangedRead, splitLines } from '../../engine/tools/render'
import type { ReadFileInput } from '../../engine/tools/schemas'
import { findUnchangedRead } from '../../engine/tools/session-state'
import { notAFile, notFound, readFailure, refusal, type ToolDeps } from './deps'
import type { InsidePath } from './project-fs'
import { fingerprintOf } from './project-fs'
import { decodeUtf8Exact } from '../fs/regular-file'
import { fileVersion, LineIndex, readLineRange } from '../fs/line-range'

/** Room kept for the "[Lines a–b of n shown…]" footer inside the output budget. */
const FOOTER_CHARS = 200

/** Said after the text of a file that is not valid UTF-8: what the model sees is not exactly what is on disk. */
export function notUtf8Note(rel: string): string {
  return (
    `\n[${rel} is not UTF-8 text: its invalid bytes are shown as U+FFFD (\uFFFD). ` +
    'edit_file cannot change it (rewriting would replace those bytes); write_file would replace all of it.]'
  )
}

export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)
}

export async function readFileTool(input: ReadFileInput, deps: ToolDeps): Promise<ToolOutcome> {
  const resolution = await deps.fs.resolve(input.path)
  if (!resolution.ok) return refusal(resolution)
  const path = resolution.path
  if (path.kind === 'missing') return notFound(path, 'Use glob or list_dir to find the right path.')
  if (path.kind !== 'file') return notAFile(path)
  if (path.size > READ_MAX_FILE_BYTES) return readLargeFile(input, path, deps)
  let bytes: Buffer
  try {
    bytes = await deps.fs.readBytes(path, READ_MAX_FILE_BYTES)
  } catch (error) {
    return readFailure(path, error)
  }
  if (isBinary(bytes)) return errorOutcome('binary', `${path.rel} is a binary file (${bytes.length} bytes); it is not shown.`)

  const fingerprint = fingerprintOf(bytes)
  const exact = decodeUtf8Exact(bytes)
  const note = exact === null ? notUtf8Note(path.rel) : ''
  const lines = splitLines(exact ?? bytes.toString('utf8'))
  const total = lines.length
  const startLine = input.offset ?? 1
  if (total > 0 && startLine > total) {
    return errorOutcome('out_of_range', `${path.rel} has ${total} lines; offset ${startLine} is past the end.`)
  }
  const wanted = { startLine, endLine: Math.min(total, startLine + (input.limit ?? READ_DEFAULT_LINE_LIMIT) - 1) }
  if (findUnchangedRead(deps.state, path.rel, fingerprint, wanted) !== null) {
    return okOutcome(renderUnchangedRead(path.rel, wanted, total))
  }
  const { text, endLine } = renderNumberedLines(lines, wanted, TOOL_OUTPUT_MAX_CHARS - FOOTER_CHARS - note.length)
  const shown = { startLine, endLine }
  return okOutcome(renderReadResult(path.rel, text, shown, total) + note, [
    { type: 'file_read', path: path.rel, fingerprint, range: shown, totalLines: total },
  ])
}

/**
 * Where lines start in the large files read lately, by version of the file: shared by every session of the process,
 * since a log paged through is often paged through again (node/fs/line-range.ts).
 */
const largeFileLines = new LineIndex()

/**
 * A file over READ_MAX_FILE_BYTES: not read whole, and not hashed. With a range (offset or limit), just those lines,
 * streamed from the last line start an earlier read of the same version noted before them, else from the start of
 * the file (node/fs/line-range.ts); without one, refused with how to read a part. A binary
 * file is refused either way. The read memory keeps, in place of the sha256 of its bytes, the file's size, change
 * time and inode (`stat:…`): enough to tell that a log grew, and edit_file refuses a file this large anyway.
 */
async function readLargeFile(input: ReadFileInput, path: InsidePath, deps: ToolDeps): Promise<ToolOutcome> {
  let opened
  try {
    opened = await deps.fs.openRead(path)
  } catch (error) {
    return readFailure(path, error)
  }
  const { handle, info } = opened
  try {
    const size = Number(info.size)
    const sniff = Buffer.alloc(BINARY_SNIFF_BYTES)
    const { bytesRead } = await handle.read(sniff, 0, sniff.length, 0)
    if (isBinary(sniff.subarray(0, bytesRead))) return errorOutcome('binary', `${path.rel} is a binary file (${size} bytes); it is not shown.`)
    if (input.offset === undefined && input.limit === undefined) {
      return errorOutcome(
        'too_large',
        `${path.rel} is ${size} bytes, more than read_file reads whole (${READ_MAX_FILE_BYTES}). ` +
          'Read a range of it with offset and limit (e.g. offset=1, limit=200; lines are counted from the start of the file, ' +
          'so a range far into it takes longer), or search it with grep.',
      )
    }
    const startLine = input.offset ?? 1
    const note = notUtf8Note(path.rel)
    const budget = TOOL_OUTPUT_MAX_CHARS - FOOTER_CHARS - note.length - path.rel.length
    const read = await readLineRange(handle, size, {
      startLine,
      maxLines: input.limit ?? READ_DEFAULT_LINE_LIMIT,
      maxChars: budget,
      countMaxBytes: READ_RANGE_COUNT_MAX_BYTES,
      signal: deps.signal,
      marks: largeFileLines.marksOf(fileVersion(info)),
    })
    if (read.aborted) return errorOutcome('aborted', `read_file of ${path.rel} stopped: the turn was interrupted.`)
    if (read.lines.length === 0) {
      return errorOutcome('out_of_range', `${path.rel} has ${read.countedLines} lines; offset ${startLine} is past the end.`)
    }
    const lines: string[] = []
    const cut = new Map<number, number>()
    read.lines.forEach((line, i) => {
      lines[startLine - 1 + i] = line.text
      if (line.cutFromBytes !== null) cut.set(startLine + i, line.cutFromBytes)
    })
    const fingerprint = `stat:${info.size}:${info.mtimeNs}:${info.ino}`
    const kept = { startLine, endLine: startLine + read.lines.length - 1 }
    if (findUnchangedRead(deps.state, path.rel, fingerprint, kept) !== null) {
      return okOutcome(renderUnchangedRead(path.rel, kept, read.totalLines))
    }
    const shownNote = read.invalidUtf8 ? note : ''
    const { text, endLine } = renderNumberedLines(lines, kept, budget, cut)
    const shown = { startLine, endLine }
    const answer =
      read.totalLines === null
        ? renderPartlyCountedRead(path.rel, text, shown, { lines: read.countedLines, bytes: read.countedBytes, fileBytes: size })
        : renderReadResult(path.rel, text, shown, read.totalLines)
    return okOutcome(answer + shownNote, [
      { type: 'file_read', path: path.rel, fingerprint, range: shown, totalLines: read.totalLines ?? read.countedLines },
    ])
  } catch (error) {
    return readFailure(path, error)
  } finally {
    await handle.close()
  }
}
