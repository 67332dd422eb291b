/**
 * What a file change will do, shown with the approval before it happens: the lines edit_file or write_file would
 * remove and add, as unified-diff hunks with three lines of context. Pure: the node side reads the file and makes
 * the new text with the tool's own checks (node/tools/change-file.ts), so the preview is the change the call makes.
 *
 * A file may be 20 MiB (READ_MAX_FILE_BYTES) and a write may replace all of it, so the work is bounded: the lines
 * both texts share at the start and the end are skipped in linear time, only the middle is diffed (with a time
 * limit, after which it is shown as removed and added whole), and at most PREVIEW_MAX_LINES lines are kept. The
 * counts of lines added and removed always cover the whole change.
 */
import { diffArrays } from 'diff'
import { splitLines } from './render'

/** Lines of unchanged text around each change. */
export const PREVIEW_CONTEXT_LINES = 3
/** Lines kept in a preview; the rest are counted in `omitted`. */
export const PREVIEW_MAX_LINES = 400
/** Longest line kept, in characters (a minified bundle is one line). */
export const PREVIEW_MAX_LINE_CHARS = 400
/** How long the middle of a change may take to diff before it is shown as removed and added whole. */
const DIFF_TIMEOUT_MS = 150

export type PreviewLineKind = 'context' | 'added' | 'removed'

export interface PreviewHunk {
  /** 1-based line of the hunk's first line in the file as it is (0 for a new file), and as it will be. */
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
  /** Lines of the change left out of `hunks` (past PREVIEW_MAX_LINES). */
  readonly omitted: number
  /**
   * Said with the preview: the call will be refused when it runs (then there are no hunks), the file is not text
   * as it is, or the change is only a line end.
   */
  readonly note: string | null
}

/** A preview of a call that will not change the file: the tool's own refusal, as the model will read it. */
export function refusedPreview(path: string, reason: string): ChangePreview {
  return { path, created: false, added: 0, removed: 0, hunks: [], omitted: 0, note: `This call will not change the file: ${reason}` }
}

interface Op {
  readonly kind: PreviewLineKind
  readonly text: string
}

function clip(text: string): string {
  return text.length > PREVIEW_MAX_LINE_CHARS ? `${text.slice(0, PREVIEW_MAX_LINE_CHARS)}…` : text
}

/** The middle's changes as ops, in order; a diff over its time limit shows the middle removed, then added. */
function middleOps(before: ReadonlyArray<string>, after: ReadonlyArray<string>): Op[] {
  const ops: Op[] = []
  const changes = before.length === 0 || after.length === 0 ? undefined : diffArrays(before as string[], after as string[], { timeout: DIFF_TIMEOUT_MS })
  if (changes === undefined) {
    for (const text of before) ops.push({ kind: 'removed', text })
    for (const text of after) ops.push({ kind: 'added', text })
    return ops
  }
  for (const change of changes) {
    const kind: PreviewLineKind = change.added ? 'added' : change.removed ? 'removed' : 'context'
    for (const text of change.value) ops.push({ kind, text })
  }
  return ops
}

/**
 * The preview of replacing `before` (null: the file does not exist) with `after`. `beforeIsText` false means the
 * file exists but is not UTF-8 text: its lines cannot be shown, so the whole new text is shown as added.
 */
export function previewChange(path: string, before: string | null, after: string, beforeIsText = true): ChangePreview {
  const created = before === null && beforeIsText
  const a = before === null ? [] : splitLines(before)
  const b = splitLines(after)

  let prefix = 0
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++
  let suffix = 0
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++

  const middle = middleOps(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix))
  const leading = a.slice(Math.max(0, prefix - PREVIEW_CONTEXT_LINES), prefix)
  const trailing = a.slice(a.length - suffix, a.length - suffix + PREVIEW_CONTEXT_LINES)
  const ops: Op[] = [...leading.map((text) => ({ kind: 'context' as const, text })), ...middle, ...trailing.map((text) => ({ kind: 'context' as const, text }))]

  // Line numbers of ops[0] in each text.
  let oldLine = prefix - leading.length + 1
  let newLine = oldLine
  const hunks: Array<{ oldStart: number; newStart: number; lines: Array<{ kind: PreviewLineKind; text: string }> }> = []
  let added = 0
  let removed = 0
  let kept = 0
  let omitted = 0
  // Where each op is within PREVIEW_CONTEXT_LINES of a change, it belongs to a hunk.
  const changed = ops.map((op) => op.kind !== 'context')
  const nearChange = new Array<boolean>(ops.length).fill(false)
  for (let i = 0; i < ops.length; i++) {
    if (!changed[i]) continue
    for (let j = Math.max(0, i - PREVIEW_CONTEXT_LINES); j <= Math.min(ops.length - 1, i + PREVIEW_CONTEXT_LINES); j++) nearChange[j] = true
  }
  let open: (typeof hunks)[number] | null = null
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!
    if (op.kind === 'added') added++
    if (op.kind === 'removed') removed++
    if (!nearChange[i]) open = null
    else if (kept >= PREVIEW_MAX_LINES) omitted++
    else {
      if (open === null) {
        open = { oldStart: a.length === 0 ? 0 : oldLine, newStart: b.length === 0 ? 0 : newLine, lines: [] }
        hunks.push(open)
      }
      open.lines.push({ kind: op.kind, text: clip(op.text) })
      kept++
    }
    if (op.kind !== 'added') oldLine++
    if (op.kind !== 'removed') newLine++
  }

  const note = !beforeIsText
    ? 'The file is not UTF-8 text, so its lines are not shown: all of it is replaced by the lines below.'
    : before !== null && before !== after && added === 0 && removed === 0
      ? 'Only line ends change (a final newline, or \\r\\n against \\n).'
      : before === after
        ? 'The file already has this text: nothing changes.'
        : null
  return { path, created, added, removed, hunks, omitted, note }
}
