/**
 * The two kinds of markup a message's text carries, parsed into plain data (MessageText.tsx renders it; nothing here
 * builds HTML, so no text can inject markup):
 *
 * - Markdown in the model's answers, the forms that matter for reading them: fenced code blocks, `inline code`,
 *   **bold**, *italic*, [links](url) (shown as their text: the app opens nothing), `#` headings, list items (`-`,
 *   `*`, `+`, `1.`, nested by indent), tables (GitHub's pipe tables) and `\*` escapes. Everything else stays as
 *   written.
 * - Claude Code's tags in an imported session's user messages: the slash command the user ran
 *   (`<command-name>/mcp</command-name>` with `<command-message>` and `<command-args>`), what a local command
 *   printed (`<local-command-stdout>`), a `!` shell command and its output (`<bash-input>`, `<bash-stdout>`), the
 *   caveat Claude Code adds for the model (`<local-command-caveat>`), `<system-reminder>` blocks, and the notice
 *   that a background task finished (`<task-notification>`).
 */

// ── Markdown ────────────────────────────────────────────────────────────────────────────────────────────────────

export type Inline =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'strong'; readonly children: ReadonlyArray<Inline> }
  | { readonly kind: 'em'; readonly children: ReadonlyArray<Inline> }
  | { readonly kind: 'link'; readonly href: string; readonly children: ReadonlyArray<Inline> }
  | { readonly kind: 'heading'; readonly level: number; readonly children: ReadonlyArray<Inline> }
  /** One line of a list: its marker as shown ("•", "2."), how deep it is nested (0 at the margin). */
  | { readonly kind: 'list_item'; readonly marker: string; readonly depth: number; readonly children: ReadonlyArray<Inline> }

export type Align = 'left' | 'center' | 'right' | null

/** A pipe table: a header row, then body rows, each a list of cells (every row has the header's number of cells). */
export interface TableNode {
  readonly kind: 'table'
  readonly align: ReadonlyArray<Align>
  readonly head: ReadonlyArray<ReadonlyArray<Inline>>
  readonly rows: ReadonlyArray<ReadonlyArray<ReadonlyArray<Inline>>>
}

/** A message is inline pieces (the text keeps its line breaks) with code blocks and tables between them. */
export type MarkdownNode = Inline | TableNode | { readonly kind: 'code_block'; readonly lang: string | null; readonly text: string }

/**
 * A fenced block: three backticks or more, closed only by a run at least as long, so a block can quote one that has
 * its own fence (a README read back in a ```` block); one left open runs to the end (an answer still streaming).
 */
const FENCE = /(`{3,})([^\n`]*)\n([\s\S]*?)(?:\1`*|$)/g
/**
 * A heading line (a closing run of `#` after a space is dropped: "## C#" keeps its `#`), or a list item: a bullet
 * (`-`, `*`, `+`) or a number and a dot, after up to 12 spaces of indent, then a space. `**bold**` at a line's start
 * is not a bullet (no space after the `*`).
 */
const BLOCK_LINE = /^(?:(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?|( {0,12})([-*+]|\d{1,9}\.)[ \t]+(.+?))[ \t]*$/gm

/** A fence marker still arriving on the last line of a streaming answer: "`", "``", or "```ts" before its line break. */
const FENCE_TAIL = /(^|\n)[ \t]*`+[^\n`]*$/
/** A line that opens or closes a fenced block, by the length of its run of backticks. */
const FENCE_LINE = /(?:^|\n)[ \t]*(`{3,})/g

/** Whether the text ends inside a fenced block: one opened and not yet closed by a run at least as long. */
function endsInCodeBlock(text: string): boolean {
  let open = 0
  for (const m of text.matchAll(FENCE_LINE)) {
    const run = m[1]!.length
    if (open === 0) open = run
    else if (run >= open) open = 0
  }
  return open > 0
}

/**
 * The end of an answer still arriving, without what would flash as backticks and vanish into formatting a delta
 * later: a fence marker not yet whole, and, outside a code block, a code span not yet closed on the last line. They
 * show once their line or span is whole.
 */
export function withoutPartialMarkup(text: string): string {
  const out = text.replace(FENCE_TAIL, '$1')
  if (endsInCodeBlock(out)) return out // in a code block: backticks there are code
  const lastLine = out.slice(out.lastIndexOf('\n') + 1)
  const ticks = lastLine.split('`').length - 1
  return ticks % 2 === 1 ? out.slice(0, out.lastIndexOf('`')) : out
}

/** `streaming`: the text is an answer still arriving (withoutPartialMarkup). */
export function parseMarkdown(whole: string, options: { readonly streaming?: boolean } = {}): MarkdownNode[] {
  const text = options.streaming ? withoutPartialMarkup(whole) : whole
  const out: MarkdownNode[] = []
  let last = 0
  for (const m of text.matchAll(FENCE)) {
    out.push(...parseBlocks(besideBlocks(text.slice(last, m.index), last > 0, true)))
    out.push({ kind: 'code_block', lang: m[2]!.trim() || null, text: m[3]!.replace(/\n$/, '') })
    last = m.index + m[0].length
  }
  out.push(...parseBlocks(besideBlocks(text.slice(last), last > 0, false)))
  return out
}

/**
 * Text beside a block (a code block or a table) without the line breaks and blank lines between them: a block
 * stands on its own lines, and its margin is the gap around it, one paragraph's, whether the text left a blank line
 * there or not. Kept as text, in a message shown with its line breaks, they would add empty lines to that margin.
 */
function besideBlocks(text: string, afterBlock: boolean, beforeBlock: boolean): string {
  let out = text
  if (afterBlock) out = out.replace(/^(?:[ \t]*\n)+/, '')
  if (beforeBlock) out = out.replace(/(?:\n[ \t]*)+$/, '')
  return out
}

/**
 * A table's delimiter row: a cell of dashes for each column, a colon at one end or both for its alignment
 * (`|:---|:-:|--:|`). Outer pipes are optional, as in GitHub's tables.
 */
const DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/

/**
 * Text outside code blocks: tables split out, the rest read line by line. A table is a line with a `|`, the delimiter
 * row with as many cells, then every following line with a `|` (a blank line or a line without one ends it). An
 * answer still streaming shows its table from the delimiter row on; the rows come in as they are written.
 */
function parseBlocks(text: string): MarkdownNode[] {
  if (!text.includes('|')) return parseLines(text)
  const lines = text.split('\n')
  const out: MarkdownNode[] = []
  let from = 0
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.includes('|') || !DELIMITER_ROW.test(lines[i + 1]!)) continue
    const head = tableCells(lines[i]!)
    const delimiter = tableCells(lines[i + 1]!)
    if (head.length !== delimiter.length) continue
    let end = i + 2
    while (end < lines.length && lines[end]!.includes('|') && lines[end]!.trim() !== '') end++
    // As around a code block, the blank lines between the table and the text are the table's margin.
    if (i > from) out.push(...parseLines(besideBlocks(lines.slice(from, i).join('\n'), from > 0, true)))
    const width = head.length
    const fit = (cells: string[]) => Array.from({ length: width }, (_, c) => parseInline(cells[c] ?? ''))
    out.push({ kind: 'table', align: delimiter.map(alignOf), head: fit(head), rows: lines.slice(i + 2, end).map((line) => fit(tableCells(line))) })
    from = end
    i = end - 1
  }
  if (from < lines.length) out.push(...parseLines(besideBlocks(lines.slice(from).join('\n'), from > 0, false)))
  return out
}

/** A row's cells, trimmed: split at each `|` (an escaped `\|` is a pipe in the cell), the outer pipes dropped. */
function tableCells(line: string): string[] {
  let row = line.trim()
  if (row.startsWith('|')) row = row.slice(1)
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1)
  const cells: string[] = []
  let cell = ''
  for (let i = 0; i < row.length; i++) {
    if (row[i] === '\\' && row[i + 1] === '|') {
      cell += '|'
      i++
    } else if (row[i] === '|') {
      cells.push(cell.trim())
      cell = ''
    } else cell += row[i]
  }
  cells.push(cell.trim())
  return cells
}

function alignOf(cell: string): Align {
  const left = cell.startsWith(':')
  const right = cell.endsWith(':')
  return left && right ? 'center' : right ? 'right' : left ? 'left' : null
}

function parseLines(text: string): Inline[] {
  const out: Inline[] = []
  let last = 0
  for (const m of text.matchAll(BLOCK_LINE)) {
    out.push(...parseInline(text.slice(last, m.index)))
    if (m[1] !== undefined) out.push({ kind: 'heading', level: m[1].length, children: parseInline(m[2]!) })
    else out.push({ kind: 'list_item', marker: /\d/.test(m[4]!) ? m[4]! : '•', depth: Math.floor(m[3]!.length / 2), children: parseInline(m[5]!) })
    last = m.index + m[0].length
  }
  out.push(...parseInline(text.slice(last)))
  return out
}

interface InlineRule {
  /** Tried where the text is at `lastIndex` (sticky). */
  readonly re: RegExp
  /** Only at the start of a word (`_` inside snake_case is not emphasis; nor is `__init__.py`, by the `.\w` after it). */
  readonly wordStart?: boolean
  node(m: RegExpExecArray): Inline
}

const strong = (m: RegExpExecArray): Inline => ({ kind: 'strong', children: parseInline(m[1]!) })
const em = (m: RegExpExecArray): Inline => ({ kind: 'em', children: parseInline(m[1]!) })

/** In order: the first that matches at a position wins. Spans never cross a line. */
const INLINE_RULES: ReadonlyArray<InlineRule> = [
  { re: /\\([\\`*_[\]()#])/y, node: (m) => ({ kind: 'text', text: m[1]! }) },
  { re: /`([^`\n]+)`/y, node: (m) => ({ kind: 'code', text: m[1]! }) },
  { re: /\[([^\]\n]+)\]\(([^()\s]+)\)/y, node: (m) => ({ kind: 'link', href: m[2]!, children: parseInline(m[1]!) }) },
  { re: /\*\*(?=\S)(.+?)(?<=\S)\*\*/y, node: strong },
  { re: /__(?=\S)(.+?)(?<=\S)__(?!\w|\.\w)/y, wordStart: true, node: strong },
  { re: /\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?!\*)/y, node: em },
  { re: /_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w|\.\w)/y, wordStart: true, node: em },
]
const MARKERS = new Set(['\\', '`', '[', '*', '_'])

export function parseInline(text: string): Inline[] {
  const out: Inline[] = []
  let plain = ''
  let i = 0
  const emit = (node: Inline) => {
    if (node.kind === 'text') return void (plain += node.text)
    if (plain) out.push({ kind: 'text', text: plain })
    plain = ''
    out.push(node)
  }
  while (i < text.length) {
    let matched = false
    if (MARKERS.has(text[i]!)) {
      const atWordStart = i === 0 || !/\w/.test(text[i - 1]!)
      for (const rule of INLINE_RULES) {
        if (rule.wordStart && !atWordStart) continue
        rule.re.lastIndex = i
        const m = rule.re.exec(text)
        if (!m) continue
        // Read where the match ends first: building the node parses its inside with these same rules.
        i = m.index + m[0].length
        emit(rule.node(m))
        matched = true
        break
      }
    }
    if (!matched) plain += text[i++]
  }
  if (plain) out.push({ kind: 'text', text: plain })
  return out
}

// ── Claude Code's tags ──────────────────────────────────────────────────────────────────────────────────────────

export type UserPart =
  | { readonly kind: 'text'; readonly text: string }
  /** A slash command the user ran in Claude Code: `/mcp`, `/compact keep the API decisions`. */
  | { readonly kind: 'command'; readonly name: string; readonly args: string }
  /** A `!` shell command the user ran in Claude Code. */
  | { readonly kind: 'shell'; readonly command: string }
  /** What a local command or a `!` shell command printed (terminal colours removed). */
  | { readonly kind: 'output'; readonly source: 'local command' | 'shell'; readonly stream: 'stdout' | 'stderr'; readonly text: string }
  /** A note written for the model, not by the user: the local-command caveat, a system reminder, a task notification. */
  | { readonly kind: 'aside'; readonly label: string; readonly text: string }

const TAGS = ['command-name', 'command-message', 'command-args', 'local-command-stdout', 'local-command-stderr', 'bash-input', 'bash-stdout', 'bash-stderr', 'local-command-caveat', 'system-reminder', 'task-notification'] as const
type Tag = (typeof TAGS)[number]
const TAG = new RegExp(`<(${TAGS.join('|')})>([\\s\\S]*?)</\\1>`, 'g')
const COMMAND_TAGS: ReadonlySet<Tag> = new Set(['command-name', 'command-message', 'command-args'])
/** Terminal colour and style codes (`ESC[2m` …), which Claude Code keeps in a command's output. */
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '')
}

/**
 * A user message's text as parts: Claude Code's tags become their own parts, the rest stays text. A command's
 * name, message and arguments (three tags, in either order) are one part.
 */
export function parseUserText(text: string): UserPart[] {
  const out: UserPart[] = []
  let last = 0
  let command: { name: string; message: string; args: string } | null = null
  const endCommand = () => {
    if (!command) return
    const name = command.name || (command.message ? `/${command.message.split(/\s/)[0]}` : '/')
    out.push({ kind: 'command', name, args: command.args })
    command = null
  }
  for (const m of text.matchAll(TAG)) {
    const between = text.slice(last, m.index)
    const tag = m[1] as Tag
    const inner = m[2]!.trim()
    last = m.index + m[0].length
    if (between.trim() !== '') {
      endCommand()
      out.push({ kind: 'text', text: trimLineBreaks(between) })
    }
    if (COMMAND_TAGS.has(tag)) {
      // A tag seen twice starts the next command.
      const key = tag === 'command-name' ? 'name' : tag === 'command-message' ? 'message' : 'args'
      if (command && command[key] !== '') endCommand()
      command ??= { name: '', message: '', args: '' }
      command[key] = inner
      continue
    }
    endCommand()
    if (tag === 'task-notification') {
      // Claude Code follows the notification with a line for the model, telling it where the task's output is: part
      // of the notification, not words of the user's.
      const hint = TASK_OUTPUT_HINT.exec(text.slice(last))
      if (hint) last += hint[0].length
      out.push(taskNotification(inner, hint?.[1] ?? null))
      continue
    }
    const part = tagPart(tag, inner)
    if (part) out.push(part)
  }
  endCommand()
  const rest = text.slice(last)
  if (rest.trim() !== '') out.push({ kind: 'text', text: last === 0 ? rest : trimLineBreaks(rest) })
  return out
}

function tagPart(tag: Tag, inner: string): UserPart | null {
  switch (tag) {
    case 'local-command-stdout':
    case 'local-command-stderr':
    case 'bash-stdout':
    case 'bash-stderr': {
      const output = stripAnsi(inner).trim()
      if (output === '') return null
      return { kind: 'output', source: tag.startsWith('bash') ? 'shell' : 'local command', stream: tag.endsWith('stderr') ? 'stderr' : 'stdout', text: output }
    }
    case 'bash-input':
      return { kind: 'shell', command: inner }
    case 'local-command-caveat':
      return { kind: 'aside', label: 'Claude Code’s note to the model about local commands', text: inner }
    case 'system-reminder':
      return { kind: 'aside', label: 'system reminder', text: inner }
    default:
      return null
  }
}

/** The line Claude Code writes after a task notification, for the model. */
const TASK_OUTPUT_HINT = /^\s*(Read the output file to retrieve the result: [^\n<]*)/
/** A field of a task notification: `<status>completed</status>`. */
const TASK_FIELD = /<([a-z][a-z-]*)>([\s\S]*?)<\/\1>/g

/**
 * A background task's notification (Claude Code tells the model that a command it started in the background, or a
 * subagent, has finished): one line saying what finished — its `<summary>`, as Claude Code wrote it — with the
 * task's other fields (id, status, output file) and the line for the model folded under it.
 */
function taskNotification(inner: string, hint: string | null): UserPart {
  const fields = [...inner.matchAll(TASK_FIELD)].map((m) => ({ name: m[1]!, value: m[2]!.trim() }))
  const summary = fields.find((f) => f.name === 'summary')?.value
  const status = fields.find((f) => f.name === 'status')?.value
  const details = fields.length > 0 ? fields.filter((f) => f.name !== 'summary').map((f) => `${f.name.replace(/-/g, ' ')}: ${f.value}`) : [inner]
  if (hint) details.push(hint)
  const label = summary ? `task notification: ${summary}` : status ? `task notification: ${status}` : 'task notification'
  return { kind: 'aside', label, text: details.filter((d) => d !== '').join('\n') }
}

/** Text between tags, without the line breaks that only separated it from them. */
function trimLineBreaks(text: string): string {
  return text.replace(/^\s*\n/, '').replace(/\n\s*$/, '')
}

/** True when a user message is only Claude Code's tags (a command and its output), with nothing the user wrote. */
export function onlyClaudeCodeMarkup(parts: ReadonlyArray<UserPart>): boolean {
  return parts.length > 0 && parts.every((p) => p.kind !== 'text')
}
