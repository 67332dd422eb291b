/**
 * The texts tools return to the model, built from gathered values. Pure, so each format is tested without a disk;
 * the node executors gather, these functions speak.
 */
import {
  GLOB_MAX_RESULTS,
  GREP_MAX_MATCHES,
  LIST_DIR_MAX_ENTRIES,
  READ_MAX_LINE_CHARS,
  TOOL_OUTPUT_MAX_CHARS,
} from './limits'
import { capOutput, renderCapped, type CappedText } from './output'
import { assertNever, type LineRange, type Todo } from './types'

/** Splits file text into lines as editors count them: a final line break does not start another line. */
export function splitLines(text: string): ReadonlyArray<string> {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
}

/**
 * `lines[startLine-1 .. endLine-1]`, numbered, each line cut at READ_MAX_LINE_CHARS, stopping early (never before
 * the first line) when the text would pass `maxChars`. Returns the last line actually shown.
 */
export function renderNumberedLines(
  lines: ReadonlyArray<string>,
  range: LineRange,
  maxChars: number = TOOL_OUTPUT_MAX_CHARS,
  /** For a line read only in part (a file read by a range): its length in bytes, by line number. */
  cutFromBytes?: ReadonlyMap<number, number>,
): { readonly text: string; readonly endLine: number } {
  let text = ''
  let endLine = range.startLine - 1
  for (let n = range.startLine; n <= range.endLine; n++) {
    const line = lines[n - 1] ?? ''
    const bytes = cutFromBytes?.get(n)
    const shown =
      bytes !== undefined
        ? `${line.slice(0, READ_MAX_LINE_CHARS)}… [line cut at ${READ_MAX_LINE_CHARS} characters of ${bytes} bytes]`
        : line.length > READ_MAX_LINE_CHARS
          ? `${line.slice(0, READ_MAX_LINE_CHARS)}… [line cut at ${READ_MAX_LINE_CHARS} of ${line.length} characters]`
          : line
    const next = `${n}\t${shown}\n`
    if (text.length + next.length > maxChars && n > range.startLine) break
    text += next
    endLine = n
  }
  return { text, endLine }
}

export function renderReadResult(path: string, body: string, shown: LineRange, totalLines: number): string {
  if (totalLines === 0) return `${path} is empty.`
  if (shown.endLine >= totalLines && shown.startLine === 1) return body
  const more = shown.endLine < totalLines ? ` Continue with offset=${shown.endLine + 1}.` : ''
  return `${body}[Lines ${shown.startLine}–${shown.endLine} of ${totalLines} shown.${more}]`
}

/**
 * A range of a file over READ_MAX_FILE_BYTES whose lines were counted only through its first `countedBytes` bytes
 * (READ_RANGE_COUNT_MAX_BYTES), so its total is not known: the footer says how far the count went.
 */
export function renderPartlyCountedRead(
  path: string,
  body: string,
  shown: LineRange,
  counted: { readonly lines: number; readonly bytes: number; readonly fileBytes: number },
): string {
  return (
    `${body}[Lines ${shown.startLine}–${shown.endLine} shown. Continue with offset=${shown.endLine + 1}. ` +
    `${path} is ${counted.fileBytes} bytes; read_file counted its lines only through the first ${counted.bytes} bytes ` +
    `(${counted.lines} lines), so its total is not known.]`
  )
}

const UNCHANGED_READ_START = 'File unchanged since your last read: '

/** `totalLines` null: a range of a large file whose lines were not all counted. */
export function renderUnchangedRead(path: string, shown: LineRange, totalLines: number | null): string {
  const lines =
    totalLines === 0 ? 'the file is empty' : `lines ${shown.startLine}–${shown.endLine}${totalLines === null ? '' : ` of ${totalLines}`}`
  return `${UNCHANGED_READ_START}${path} (${lines}). Its content is earlier in this conversation; refer to it there.`
}

/** A read_file result that points back at an earlier read instead of carrying the content (renderUnchangedRead). */
export function isUnchangedRead(content: string): boolean {
  return content.startsWith(UNCHANGED_READ_START)
}

export type ListingKind = 'file' | 'dir' | 'symlink' | 'other'
export interface ListingEntry {
  readonly name: string
  readonly kind: ListingKind
}

/** A newline, a tab or another control character: in a name listed one a line, it would read as two names. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/

/**
 * A file name or path as the listing tools show it, one a line: as it is, or written as a JSON string when it holds a
 * control character (`new\nline.txt` would otherwise read as the two names `new` and `line.txt`).
 */
export function shownName(name: string): string {
  return CONTROL_CHARACTER.test(name) ? JSON.stringify(name) : name
}

/** Said once under a listing that holds a quoted name. */
export const QUOTED_NAMES_NOTE =
  '[A name in double quotes holds a control character (a newline, a tab) and is written as a JSON string: give it to tools with that character.]'

function quotedNote(names: ReadonlyArray<string>): string {
  return names.some((n) => CONTROL_CHARACTER.test(n)) ? `\n${QUOTED_NAMES_NOTE}` : ''
}

export function renderListing(path: string, entries: ReadonlyArray<ListingEntry>): string {
  if (entries.length === 0) return `${path} is an empty folder.`
  const suffix = (kind: ListingKind) => (kind === 'dir' ? '/' : kind === 'symlink' ? '@' : '')
  const kept = entries.slice(0, LIST_DIR_MAX_ENTRIES)
  const shown = kept.map((e) => `${shownName(e.name)}${suffix(e.kind)}`)
  const more =
    entries.length > LIST_DIR_MAX_ENTRIES
      ? `\n[${entries.length - LIST_DIR_MAX_ENTRIES} more entries not shown. List a subfolder or use glob with a narrower pattern.]`
      : ''
  const note = quotedNote(kept.map((e) => e.name))
  return capOutput(shown.join('\n') + more, TOOL_OUTPUT_MAX_CHARS - note.length, 'head', 'List a subfolder or use glob.') + note
}

export function renderGlobResult(pattern: string, paths: ReadonlyArray<string>, ignoredCount: number): string {
  const ignored = ignoredCount > 0 ? `\n[${ignoredCount} more matched but are ignored by .gitignore.]` : ''
  if (paths.length === 0) return `No files match ${pattern}.${ignored}`
  const more =
    paths.length > GLOB_MAX_RESULTS ? `\n[${paths.length - GLOB_MAX_RESULTS} more paths not shown. Use a narrower pattern.]` : ''
  const kept = paths.slice(0, GLOB_MAX_RESULTS)
  const note = quotedNote(kept)
  return capOutput(kept.map(shownName).join('\n') + more + ignored, TOOL_OUTPUT_MAX_CHARS - note.length, 'head', 'Use a narrower pattern.') + note
}

/**
 * `matches` are `path:line:text` lines; `stoppedEarly` when the search stopped at GREP_MAX_MATCHES; `incomplete`, why
 * the search did not cover everything it should have (it timed out, files could not be read), said even when nothing
 * matched, so "no matches" is never taken for "not there".
 */
export function renderGrepResult(pattern: string, where: string, matches: ReadonlyArray<string>, stoppedEarly: boolean, incomplete: string | null = null): string {
  const gap = incomplete === null ? '' : `\n[Incomplete: ${incomplete}]`
  if (matches.length === 0) return `No matches for /${pattern}/ in ${where === '.' ? 'the project' : where}.${gap}`
  const more = stoppedEarly
    ? `\n[Stopped after ${GREP_MAX_MATCHES} matches. Narrow the search with path or glob, or a more specific pattern.]`
    : ''
  // The note goes after the cut: a long result must not lose the one line that says it is incomplete.
  return capOutput(matches.join('\n') + more, TOOL_OUTPUT_MAX_CHARS - gap.length, 'head', 'Narrow the search with path or glob, or a more specific pattern.') + gap
}

export type CommandEnd =
  | { readonly kind: 'exited'; readonly exitCode: number }
  | { readonly kind: 'signalled'; readonly signal: string }
  | { readonly kind: 'timed_out'; readonly timeoutMs: number }
  | { readonly kind: 'aborted' }

const REDIRECT_HINT =
  'To see everything, run the command again with its output redirected to a file in the project ' +
  '(e.g. `cmd > out.log 2>&1`) and read it with read_file offset/limit, or filter it with grep.'

export function renderCommandResult(output: CappedText, end: CommandEnd): string {
  const body = output.totalChars === 0 ? '(no output)\n' : renderCapped(output, REDIRECT_HINT)
  const text = body.endsWith('\n') ? body : `${body}\n`
  switch (end.kind) {
    case 'exited':
      return `${text}[exit code ${end.exitCode}]`
    case 'signalled':
      return `${text}[killed by ${end.signal}]`
    case 'timed_out':
      return `${text}[timed out after ${end.timeoutMs} ms; the command and every process it started were stopped. Pass a larger timeout_ms if it needs longer.]`
    case 'aborted':
      return `${text}[interrupted by the user; the command and every process it started were stopped]`
    default:
      return assertNever(end)
  }
}

const TODO_MARK = { pending: '[ ]', in_progress: '[~]', done: '[x]' } as const

export function renderTodos(todos: ReadonlyArray<Todo>): string {
  if (todos.length === 0) return 'The plan is now empty.'
  return `Plan updated:\n${todos.map((todo) => `${TODO_MARK[todo.status]} ${todo.content}`).join('\n')}`
}

/** Lines shown around an edit so the model can check it without reading the file again. */
const EDIT_CONTEXT_LINES = 3

/** `lines` is the whole file after the edit; the replacement starts at `line` and spans `insertedLines` lines. */
export function renderEditResult(path: string, lines: ReadonlyArray<string>, line: number, insertedLines: number): string {
  const startLine = Math.max(1, line - EDIT_CONTEXT_LINES)
  const endLine = Math.min(lines.length, line + Math.max(insertedLines, 1) - 1 + EDIT_CONTEXT_LINES)
  const excerpt = endLine >= startLine ? renderNumberedLines(lines, { startLine, endLine }, 4_000).text : ''
  return `Edited ${path} at line ${line}.${excerpt === '' ? '' : `\n${excerpt.trimEnd()}`}`
}
