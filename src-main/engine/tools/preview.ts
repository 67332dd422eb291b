/**
 * What a file change will do, shown with the approval before it happens and kept with the call's result after: the
 * lines edit_file or write_file would remove and add, as unified-diff hunks with three lines of context. Pure: the
 * node side reads the file and makes the new text with the tool's own checks (node/tools/change-file.ts), so the
 * preview is the change the call makes.
 *
 * It runs on the main process, for files up to 20 MiB (READ_MAX_FILE_BYTES), so its work is bounded by the change,
 * not the file: the characters both texts share at the start and the end are skipped in one scan, and only the
 * lines between (plus their context) are split. Those are diffed line by line when there are at most
 * DIFF_MAX_LINES of them, with a time limit; otherwise, or past the limit, they are shown removed, then added. What
 * is kept is bounded too: PREVIEW_MAX_LINES lines, PREVIEW_MAX_CHARS characters, and at most half the lines for one
 * run of removed or added lines, so a rewrite shows some of what it writes, not only what it removes. The counts of
 * lines added and removed always cover the whole change.
 */
import { diffArrays } from 'diff'

/** Lines of unchanged text around each change. */
export const PREVIEW_CONTEXT_LINES = 3
/** Lines kept in a preview; the changed lines past it are counted in `omitted`. */
export const PREVIEW_MAX_LINES = 400
/** Characters kept in a preview, all lines together: the preview goes to every window with the approval. */
export const PREVIEW_MAX_CHARS = 64_000
/** Longest line kept, in characters (a minified bundle is one line). */
export const PREVIEW_MAX_LINE_CHARS = 400
/** Lines of one run of removed (or added) lines kept; the rest are said as a count in the hunk. */
const RUN_MAX_LINES = PREVIEW_MAX_LINES / 2 - 1
/** More changed lines than this (both sides together) are not diffed: shown removed, then added. */
const DIFF_MAX_LINES = 20_000
/** How long the changed lines may take to diff before they are shown removed, then added. */
const DIFF_TIMEOUT_MS = 100

/** `skipped`: a run of changed lines cut short; its text says how many more ("… 250 more lines removed"). */
export type PreviewLineKind = 'context' | 'added' | 'removed' | 'skipped'

export interface PreviewHunk {
  /** 1-based line of the hunk's first line in the file as it is (0 for a file with no lines), and as it will be. */
  readonly oldStart: number
  readonly newStart: number
  /** Each line's kind and text, without its line end; text longer than PREVIEW_MAX_LINE_CHARS ends in "…". */
  readonly lines: ReadonlyArray<{ readonly kind: PreviewLineKind; readonly text: string }>
}

export interface ChangePreview {
  /** The file, relative to the project root. */
  readonly path: string
  /** The file does not exist yet. */
  readonly created: boolean
  /** Lines added and removed by the whole change (not only the lines kept). */
  readonly added: number
  readonly removed: number
  readonly hunks: ReadonlyArray<PreviewHunk>
  /** Changed lines (added or removed) left out of `hunks`. */
  readonly omitted: number
  /**
   * Said with the preview: the call will be refused when it runs (then there are no hunks), the file is not text as
   * it is, line ends change, or nothing does.
   */
  readonly note: string | null
  /** The tool will refuse the call: `note` says why, and there is nothing to show. */
  readonly refused?: true
}

/**
 * A preview of a call the tool will refuse: what the user is told (`userReason`), not the text the model reads,
 * which speaks to the model ("since you last read it").
 */
export function refusedPreview(path: string, userReason: string): ChangePreview {
  return {
    path,
    created: false,
    added: 0,
    removed: 0,
    hunks: [],
    omitted: 0,
    note: `${userReason} Allowing it changes nothing: the tool only tells the agent why.`,
    refused: true,
  }
}

type Op =
  | { readonly kind: 'context' | 'added' | 'removed'; readonly text: string }
  /** `count` lines of a run of `of` lines, not kept. */
  | { readonly kind: 'skipped'; readonly text: string; readonly of: 'added' | 'removed'; readonly count: number }

/** Cut at PREVIEW_MAX_LINE_CHARS, never between the two halves of a surrogate pair; a line's `\r` is not shown. */
function shown(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line
  if (text.length <= PREVIEW_MAX_LINE_CHARS) return text
  let end = PREVIEW_MAX_LINE_CHARS
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return `${text.slice(0, end)}…`
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) n++
  return n
}

/** The lines of `text[from, to)`, which starts at a line start; a final line end does not make an empty line. */
function linesOf(text: string, from: number, to: number): string[] {
  if (from >= to) return []
  const lines = text.slice(from, to).split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/** Where the line holding `at` starts. */
function lineStart(text: string, at: number): number {
  return at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1
}

/** The start of the line `count` lines before the line starting at `start` (or 0). */
function linesBack(text: string, start: number, count: number): number {
  let at = start
  for (let i = 0; i < count && at > 0; i++) at = lineStart(text, at - 1)
  return at
}

/** The index after `count` more lines from `start` (a line start), or the text's end. */
function linesForward(text: string, start: number, count: number): number {
  let at = start
  for (let i = 0; i < count && at < text.length; i++) {
    const nl = text.indexOf('\n', at)
    at = nl === -1 ? text.length : nl + 1
  }
  return at
}

/** A region of a text: [from, to), starting at a line start, and how many lines it holds. */
interface Region {
  readonly text: string
  readonly from: number
  readonly to: number
  readonly lines: number
}

function region(text: string, from: number, to: number): Region {
  const lines = from >= to ? 0 : countNewlines(text, from, to) + (text.charCodeAt(to - 1) === 10 ? 0 : 1)
  return { text, from, to, lines }
}

/**
 * The changed lines as ops, with runs of one kind cut to RUN_MAX_LINES (a `skipped` op says how many more). The two
 * regions are split and diffed only when small enough; otherwise only the lines kept are split, and all of the old
 * region is shown removed, then all of the new one added.
 */
function changedOps(a: Region, b: Region, diffTimeoutMs: number): { ops: Op[]; added: number; removed: number } {
  const runs: Array<{ kind: 'context' | 'added' | 'removed'; lines: ReadonlyArray<string>; count: number }> = []
  const small = a.lines > 0 && b.lines > 0 && a.lines + b.lines <= DIFF_MAX_LINES
  const changes = small ? diffArrays(linesOf(a.text, a.from, a.to), linesOf(b.text, b.from, b.to), { timeout: diffTimeoutMs }) : undefined
  if (changes === undefined) {
    const head = (r: Region) => linesOf(r.text, r.from, linesForward(r.text, r.from, RUN_MAX_LINES))
    if (a.lines > 0) runs.push({ kind: 'removed', lines: head(a), count: a.lines })
    if (b.lines > 0) runs.push({ kind: 'added', lines: head(b), count: b.lines })
  } else {
    for (const change of changes) runs.push({ kind: change.added ? 'added' : change.removed ? 'removed' : 'context', lines: change.value, count: change.value.length })
  }
  const ops: Op[] = []
  let added = 0
  let removed = 0
  for (const run of runs) {
    if (run.kind === 'added') added += run.count
    if (run.kind === 'removed') removed += run.count
    const keep = run.kind === 'context' ? run.count : Math.min(run.count, RUN_MAX_LINES)
    for (let i = 0; i < keep; i++) ops.push({ kind: run.kind, text: run.lines[i]! })
    const more = run.count - keep
    if (more > 0 && run.kind !== 'context') {
      ops.push({ kind: 'skipped', of: run.kind, count: more, text: `… ${more.toLocaleString('en')} more line${more === 1 ? '' : 's'} ${run.kind}` })
    }
  }
  return { ops, added, removed }
}

/** Compared a block at a time (a string comparison is a memory compare), then a character at a time. */
const SCAN_BLOCK = 4_096

/** How many characters `a` and `b` share at the start, at most `max`. */
function sharedStart(a: string, b: string, max: number): number {
  let at = 0
  while (at + SCAN_BLOCK <= max && a.slice(at, at + SCAN_BLOCK) === b.slice(at, at + SCAN_BLOCK)) at += SCAN_BLOCK
  while (at < max && a.charCodeAt(at) === b.charCodeAt(at)) at++
  return at
}

/** How many characters `a` and `b` share at the end, at most `max`. */
function sharedEnd(a: string, b: string, max: number): number {
  let n = 0
  while (n + SCAN_BLOCK <= max && a.slice(a.length - n - SCAN_BLOCK, a.length - n) === b.slice(b.length - n - SCAN_BLOCK, b.length - n)) n += SCAN_BLOCK
  while (n < max && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++
  return n
}

/** How many `\r\n` line ends a piece of text has. */
function crlfCount(text: string, from: number, to: number): number {
  let n = 0
  for (let at = text.indexOf('\r\n', from); at !== -1 && at < to; at = text.indexOf('\r\n', at + 1)) n++
  return n
}

/**
 * The preview of replacing `before` (null: the file does not exist) with `after`. `beforeIsText` false means the
 * file exists but is not UTF-8 text: its lines cannot be shown, so the whole new text is shown as added.
 */
/** `diffTimeoutMs`: how long the diff may take (DIFF_TIMEOUT_MS); a test that checks what a diff shows gives it time. */
export function previewChange(path: string, before: string | null, after: string, beforeIsText = true, diffTimeoutMs = DIFF_TIMEOUT_MS): ChangePreview {
  const created = before === null && beforeIsText
  const a = before ?? ''
  const b = after
  if (before !== null && a === b) {
    return { path, created, added: 0, removed: 0, hunks: [], omitted: 0, note: 'The file already has this text: nothing changes.' }
  }

  // The first character that differs, and the start of its line (the same in both: everything before is shared).
  const shortest = Math.min(a.length, b.length)
  const first = sharedStart(a, b, shortest)
  const start = lineStart(a, first)
  // The shared end, moved forward to where a line starts in both, never reaching back past `start`.
  const same = sharedEnd(a, b, shortest - first)
  let endA = a.length - same
  let endB = b.length - same
  const aligned = (t: string, at: number) => at === 0 || t.charCodeAt(at - 1) === 10
  if (!(aligned(a, endA) && aligned(b, endB))) {
    const nl = a.indexOf('\n', endA)
    if (nl === -1) {
      endA = a.length
      endB = b.length
    } else {
      endB += nl + 1 - endA
      endA = nl + 1
    }
  }

  const oldFirstLine = countNewlines(a, 0, start) + 1
  const leadFrom = linesBack(a, start, PREVIEW_CONTEXT_LINES)
  const leading = linesOf(a, leadFrom, start)
  const trailing = linesOf(a, endA, linesForward(a, endA, PREVIEW_CONTEXT_LINES))
  const changed = changedOps(region(a, start, endA), region(b, start, endB), diffTimeoutMs)
  const ops: Op[] = [
    ...leading.map((text) => ({ kind: 'context' as const, text })),
    ...changed.ops,
    ...trailing.map((text) => ({ kind: 'context' as const, text })),
  ]

  // Line numbers of ops[0] in each text.
  let oldLine = oldFirstLine - leading.length
  let newLine = oldLine
  const hunks: Array<{ oldStart: number; newStart: number; lines: Array<{ kind: PreviewLineKind; text: string }> }> = []
  let keptLines = 0
  let keptChars = 0
  let omitted = 0
  const isChange = (op: Op) => op.kind !== 'context'
  // Where each op is within PREVIEW_CONTEXT_LINES of a change, it belongs to a hunk.
  const nearChange = new Array<boolean>(ops.length).fill(false)
  for (let i = 0; i < ops.length; i++) {
    if (!isChange(ops[i]!)) continue
    for (let j = Math.max(0, i - PREVIEW_CONTEXT_LINES); j <= Math.min(ops.length - 1, i + PREVIEW_CONTEXT_LINES); j++) nearChange[j] = true
  }
  let open: (typeof hunks)[number] | null = null
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!
    const text = op.kind === 'skipped' ? op.text : shown(op.text)
    if (!nearChange[i]) open = null
    else if (keptLines >= PREVIEW_MAX_LINES || keptChars + text.length > PREVIEW_MAX_CHARS) {
      if (op.kind === 'added' || op.kind === 'removed') omitted++
    } else {
      if (open === null) {
        open = { oldStart: a === '' ? 0 : oldLine, newStart: b === '' ? 0 : newLine, lines: [] }
        hunks.push(open)
      }
      open.lines.push({ kind: op.kind, text })
      keptLines++
      keptChars += text.length
    }
    // The lines a skipped op stands for are never shown.
    if (op.kind === 'skipped') omitted += op.count
    if (op.kind === 'added' || (op.kind === 'skipped' && op.of === 'added')) newLine += op.kind === 'skipped' ? op.count : 1
    else if (op.kind === 'removed' || op.kind === 'skipped') oldLine += op.kind === 'skipped' ? op.count : 1
    else {
      oldLine++
      newLine++
    }
  }

  const notes: string[] = []
  if (!beforeIsText) notes.push(b === '' ? 'The file is not UTF-8 text; it is emptied.' : 'The file is not UTF-8 text, so its lines are not shown: all of it is replaced by the lines below.')
  else if (created && b === '') notes.push('An empty file.')
  if (beforeIsText && before !== null) {
    if (crlfCount(a, start, endA) !== crlfCount(b, start, endB)) notes.push('Line ends change between \\r\\n and \\n in the lines shown.')
    if (a !== '' && b !== '' && a.endsWith('\n') !== b.endsWith('\n')) notes.push(b.endsWith('\n') ? 'A final line end is added.' : 'The final line end is removed.')
  }
  return { path, created, added: changed.added, removed: changed.removed, hunks, omitted, note: notes.length > 0 ? notes.join(' ') : null }
}
