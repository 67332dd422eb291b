/**
 * Finds `@path` import references in instruction markdown, the way Claude Code documents them: an `@` at the start
 * of a line or after whitespace, followed by a path. References inside fenced code blocks, inline code spans and
 * HTML comments are not imports (`-d @/tmp/registry.json` in a shell example must stay text).
 *
 * Whether a reference names a file is decided by the reading side: `@claude-flow/cli` is usually a package name,
 * and is left alone when no such file exists.
 */

/** At most this many references are followed per file, which bounds the reads one file can cause. */
export const MAX_IMPORT_REFS_PER_FILE = 64

/** Trailing characters that end a sentence rather than a path: `see @AGENTS.md.` imports `AGENTS.md`. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}>"'*_]+$/

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/

/** The `@path` references of `text`, in order of appearance, without the `@`, duplicates removed. */
export function findImportRefs(text: string): string[] {
  const refs: string[] = []
  const seen = new Set<string>()
  let fence: { char: string; length: number } | null = null
  let inComment = false
  for (const line of text.split('\n')) {
    if (fence !== null) {
      const close = FENCE_OPEN.exec(line)
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && line.trim() === close[1]) {
        fence = null
      }
      continue
    }
    if (!inComment) {
      const open = FENCE_OPEN.exec(line)
      if (open) {
        fence = { char: open[1]![0]!, length: open[1]!.length }
        continue
      }
    }
    // Most lines hold neither a reference nor a comment: skip the work for them.
    if (!inComment && !line.includes('@') && !line.includes('<!--')) continue
    const visible = stripComments(line, inComment)
    inComment = visible.inComment
    for (const ref of refsInLine(stripCodeSpans(visible.text))) {
      if (seen.has(ref)) continue
      seen.add(ref)
      refs.push(ref)
      if (refs.length >= MAX_IMPORT_REFS_PER_FILE) return refs
    }
  }
  return refs
}

/** Removes `<!-- … -->` spans from a line; a comment left open continues on the next line. */
function stripComments(line: string, startsInComment: boolean): { text: string; inComment: boolean } {
  let out = ''
  let rest = line
  let inComment = startsInComment
  for (;;) {
    if (inComment) {
      const end = rest.indexOf('-->')
      if (end < 0) return { text: out, inComment: true }
      rest = rest.slice(end + 3)
      inComment = false
      out += ' '
    } else {
      const start = rest.indexOf('<!--')
      if (start < 0) return { text: out + rest, inComment: false }
      out += rest.slice(0, start)
      rest = rest.slice(start + 4)
      inComment = true
    }
  }
}

/** Blanks out inline code spans: a run of N backticks up to the next run of exactly N backticks on the line. */
function stripCodeSpans(line: string): string {
  let tick = line.indexOf('`')
  if (tick < 0) return line
  let out = ''
  let from = 0
  while (tick >= 0) {
    let run = 1
    while (line[tick + run] === '`') run++
    const close = findRun(line, tick + run, run)
    if (close < 0) {
      // An unmatched run is literal text (CommonMark), and cannot hide a reference.
      tick = line.indexOf('`', tick + run)
      continue
    }
    out += `${line.slice(from, tick)} `
    from = close + run
    tick = line.indexOf('`', from)
  }
  return out + line.slice(from)
}

function findRun(line: string, from: number, length: number): number {
  let i = line.indexOf('`', from)
  while (i >= 0) {
    let run = 1
    while (line[i + run] === '`') run++
    if (run === length) return i
    i = line.indexOf('`', i + run)
  }
  return -1
}

function refsInLine(line: string): string[] {
  if (!line.includes('@')) return []
  const refs: string[] = []
  for (const match of line.matchAll(/(?:^|\s)@(\S+)/g)) {
    const ref = match[1]!.replace(TRAILING_PUNCTUATION, '')
    if (ref.length === 0 || ref.startsWith('@')) continue
    refs.push(ref)
  }
  return refs
}
