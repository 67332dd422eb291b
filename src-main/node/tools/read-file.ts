/** read_file: line ranges, line numbers, and "unchanged since your last read" for content already shown. */
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import { BINARY_SNIFF_BYTES, READ_DEFAULT_LINE_LIMIT, READ_MAX_FILE_BYTES, TOOL_OUTPUT_MAX_CHARS } from '../../engine/tools/limits'
import { renderNumberedLines, renderReadResult, renderUnchangedRead, splitLines } from '../../engine/tools/render'
import type { ReadFileInput } from '../../engine/tools/schemas'
import { findUnchangedRead } from '../../engine/tools/session-state'
import { notAFile, notFound, readFailure, refusal, type ToolDeps } from './deps'
import { fingerprintOf } from './project-fs'
import { decodeUtf8Exact } from '../fs/regular-file'

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
  if (path.size > READ_MAX_FILE_BYTES) {
    return errorOutcome('too_large', `${path.rel} is ${path.size} bytes, more than read_file reads (${READ_MAX_FILE_BYTES}). Search it with grep instead.`)
  }
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
