/**
 * Extractive compaction summaries. The instruction (the last user message) names the sections it wants as a
 * numbered list or as headings; each section is filled with text lifted from the conversation: every user
 * request quoted, files and commands touched, errors, open items, the current work. A focus named in the
 * instruction ("focus on X") comes first. `<analysis>`/`<summary>` wrappers are used when the instruction asks.
 */
import type { SimMessage } from '../request'
import { declinedReason, toolSteps, userWords, type ToolStep } from './conversation'

const QUOTE_CHARS = 1000
const DEFAULT_SECTIONS = ['User requests', 'Files touched', 'Commands run', 'Errors', 'Open items', 'Current work']

export interface History {
  readonly requests: ReadonlyArray<string>
  readonly steps: ReadonlyArray<ToolStep>
  readonly assistantTexts: ReadonlyArray<string>
}

export function readHistory(messages: ReadonlyArray<SimMessage>): History {
  const requests: string[] = []
  const assistantTexts: string[] = []
  for (const m of messages) {
    const words = userWords(m)
    if (words !== null) requests.push(words)
    if (m.role === 'assistant') {
      for (const b of m.content) if (b.type === 'text' && typeof b.text === 'string' && b.text.trim()) assistantTexts.push(b.text.trim())
    }
  }
  return { requests, steps: toolSteps(messages).flat(), assistantTexts }
}

/** Section titles the instruction asks for: numbered items ("1. Primary Request and Intent:") or headings. */
export function requestedSections(instruction: string): string[] {
  const numbered = [...instruction.matchAll(/^\s{0,3}\d+\.\s+([^:\n]{3,80}?)\s*(?::|$)/gm)].map((m) => m[1]!.replace(/\*+/g, '').trim())
  if (numbered.length > 0) return numbered
  const headings = [...instruction.matchAll(/^#{1,4}\s+(.{3,80})$/gm)].map((m) => m[1]!.trim())
  return headings.length > 0 ? headings : DEFAULT_SECTIONS
}

export function focusOf(instruction: string): string | null {
  // The focus runs to the end of its sentence or line ("Focus: parser tests. Use …" → "parser tests").
  const m = instruction.match(/\bfocus(?:ing)?(?:\s+on)?\s*[:\-]?\s+(.+?)(?:[.!?](?:\s|$)|\n|$)/i)
  return m ? m[1]!.trim() : null
}

function quote(text: string): string {
  const clipped = text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text
  return `"${clipped.replace(/\n/g, ' ')}"`
}

function pathOf(step: ToolStep): string | null {
  const p = step.input.path ?? step.input.file_path ?? step.input.filePath
  return typeof p === 'string' && p.length > 0 ? p : null
}

const VERB: Readonly<Record<string, string>> = { read_file: 'read', edit_file: 'edited', write_file: 'written', list_dir: 'listed', grep: 'searched' }
const NOUN: Readonly<Record<string, string>> = { read_file: 'read', edit_file: 'edit', write_file: 'write', list_dir: 'listing', grep: 'search' }

/** What a call did to its file: "edited", or "edit declined" / "edit failed" when it did nothing. */
function verbOf(s: ToolStep): string {
  if (!s.isError) return VERB[s.name] ?? s.name
  return `${NOUN[s.name] ?? s.name} ${declinedReason(s) !== null ? 'declined' : 'failed'}`
}

function files(h: History): string[] {
  const seen = new Map<string, Set<string>>()
  for (const s of h.steps) {
    const p = pathOf(s)
    if (!p) continue
    const verbs = seen.get(p) ?? new Set<string>()
    verbs.add(verbOf(s))
    seen.set(p, verbs)
  }
  return [...seen].map(([p, verbs]) => `\`${p}\` (${[...verbs].join(', ')})`)
}

function firstLineOf(text: string): string {
  return text.trim().split('\n')[0] ?? ''
}

function short(text: string, max = 80): string {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > max ? `${one.slice(0, max)}…` : one
}

/** Every edit and write that went through, oldest first, with the tool's own word on the result. */
function changes(h: History): string[] {
  const lines: string[] = []
  for (const s of h.steps) {
    const p = pathOf(s)
    if (!p || s.isError || s.result === null) continue
    const said = firstLineOf(s.result)
    const outcome = said ? ` — ${said}` : ''
    if (s.name === 'edit_file') {
      const from = s.input.old_string ?? s.input.oldString ?? s.input.old
      const to = s.input.new_string ?? s.input.newString ?? s.input.new
      const what = typeof from === 'string' && typeof to === 'string' ? `replaced "${short(from)}" with "${short(to)}"` : 'edited'
      lines.push(`\`${p}\`: ${what}${outcome}`)
    } else if (s.name === 'write_file') lines.push(`\`${p}\`: written${outcome}`)
  }
  return lines
}

function commands(h: History): string[] {
  return h.steps.filter((s) => s.name === 'bash').map((s) => `\`${String(s.input.command ?? s.input.cmd ?? '')}\`${s.isError ? ' (failed)' : ''}`)
}

function errors(h: History): string[] {
  return h.steps.filter((s) => s.isError).map((s) => `${s.name}${pathOf(s) ? ` on \`${pathOf(s)}\`` : ''}: ${(s.result ?? '').trim().split('\n')[0] ?? ''}`)
}

function openItems(h: History): string[] {
  const items: string[] = []
  // The list as it stands: the latest todo_write that went through (a refused one changed nothing).
  const todos = [...h.steps].reverse().find((s) => s.name === 'todo_write' && !s.isError && s.result !== null)
  if (todos && Array.isArray(todos.input.todos)) {
    for (const t of todos.input.todos as Array<{ content?: unknown; status?: unknown }>) {
      if (t.status !== 'completed' && t.status !== 'done') items.push(`${String(t.content ?? '')} (${String(t.status ?? 'pending')})`)
    }
  }
  const unanswered = h.steps.filter((s) => s.result === null)
  for (const s of unanswered) items.push(`\`${s.name}\` call without a result`)
  return items
}

function currentWork(h: History): string[] {
  const lines: string[] = []
  const lastRequest = h.requests[h.requests.length - 1]
  if (lastRequest) lines.push(`Latest request: ${quote(lastRequest)}`)
  const lastText = h.assistantTexts[h.assistantTexts.length - 1]
  if (lastText) lines.push(`Last reply: ${quote(lastText.slice(0, 300))}`)
  const lastStep = h.steps[h.steps.length - 1]
  if (lastStep) lines.push(`Last tool call: \`${lastStep.name}\`${pathOf(lastStep) ? ` on \`${pathOf(lastStep)}\`` : ''}`)
  return lines
}

function keyTerms(h: History): string[] {
  const counts = new Map<string, number>()
  for (const text of [...h.requests, ...h.assistantTexts]) {
    // Pair the backticks first, then drop spans too short or long: a length limit inside the pattern would let a
    // match start at a closing backtick ("`.` has 3 entries: `a`" gave "` has 3 entries: `").
    for (const m of withoutFences(text).matchAll(/`([^`\n]+)`/g)) {
      const term = m[1]!.trim()
      if (term.length >= 2 && term.length <= 60) counts.set(term, (counts.get(term) ?? 0) + 1)
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10).map(([t]) => `\`${t}\``)
}

function withoutFences(text: string): string {
  return text.replace(/(`{3,})[^\n]*\n[\s\S]*?\n\1/g, '\n')
}

/** A whole sentence, not a fragment: at least three words, code spans closed, a capital, a digit, a quote or code
 * first, and (for the assistant's prose) a full stop, question or exclamation mark last. */
function isSentence(text: string, needsStop = true): boolean {
  const t = text.trim()
  if ((t.match(/`/g) ?? []).length % 2 !== 0) return false
  if (!/^[A-Z0-9`"“'(]/.test(t)) return false
  if (needsStop && !/[.!?]["”')]?$/.test(t)) return false
  return t.replace(/`[^`]*`/g, 'x').split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length >= 3
}

function sentences(text: string): string[] {
  return withoutFences(text)
    .split(/\n+|(?<=[.!?]["”')]?)\s+(?=[A-Z0-9`"“'(])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}

const DECIDING = /\b(decid\w*|decision|chose|chosen|instead|rather than|because|so I|so we|won'?t|will not|don'?t|do not|prefer|keep|let'?s|we use|should|must|never|always)\b/i

/**
 * What was decided: calls the user declined (with the reason given), facts saved to memory, and the sentences of
 * the conversation that say what was chosen or rejected and why. Only whole sentences: a line that is not one
 * (a list entry, a code fragment, a heading) is dropped.
 */
function decisions(h: History): string[] {
  const lines: string[] = []
  for (const s of h.steps) {
    const reason = declinedReason(s)
    if (reason !== null) {
      const target = pathOf(s) ? ` on \`${pathOf(s)}\`` : s.name === 'bash' ? ` (\`${short(String(s.input.command ?? s.input.cmd ?? ''))}\`)` : ''
      lines.push(`The user declined the \`${s.name}\` call${target}${reason === '' ? '.' : `: "${short(reason, 200)}".`}`)
    } else if (s.name === 'remember' && !s.isError && typeof s.input.fact === 'string') {
      lines.push(`Saved to ${String(s.input.scope ?? 'project')} memory: "${short(s.input.fact, 200)}".`)
    }
  }
  for (const request of h.requests) {
    for (const sentence of sentences(request)) if (DECIDING.test(sentence) && isSentence(sentence, false)) lines.push(quote(sentence))
  }
  for (const text of h.assistantTexts) {
    // "You declined …" is the agent repeating a declined call, already listed from the call itself.
    for (const sentence of sentences(text)) if (DECIDING.test(sentence) && !/^You declined\b/.test(sentence) && isSentence(sentence)) lines.push(sentence)
  }
  return [...new Set(lines)].slice(0, 12)
}

function focusLines(h: History, focus: string): string[] {
  const words = focus.toLowerCase().split(/\W+/).filter((w) => w.length > 2)
  const texts = [...h.requests, ...h.assistantTexts, ...h.steps.map((s) => `${s.name} ${JSON.stringify(s.input)}`)]
  return texts
    .flatMap((t) => t.split(/(?<=[.!?])\s+|\n/))
    .filter((sentence) => words.some((w) => sentence.toLowerCase().includes(w)))
    .slice(0, 12)
    .map((s) => quote(s.trim()))
}

function sectionBody(title: string, h: History): string[] {
  const t = title.toLowerCase()
  if (/user|request|intent|asked/.test(t)) return h.requests.map(quote)
  if (/change|edit|modif|written/.test(t)) return changes(h)
  if (/file|code/.test(t)) return files(h)
  if (/command|shell|bash/.test(t)) return commands(h)
  if (/error|fix|problem|fail/.test(t)) return errors(h)
  if (/pending|open|todo|next|remaining/.test(t)) return openItems(h)
  if (/current|recent|work|progress/.test(t)) return currentWork(h)
  if (/decision|decided/.test(t)) return decisions(h)
  if (/concept|technical|term/.test(t)) return keyTerms(h)
  return []
}

/** A section's title as a key: "Changes made" and "changes made " are one section. */
const sectionKey = (title: string) => title.replace(/\s+/g, ' ').trim().toLowerCase()

/**
 * The sections of an earlier summary in the conversation (a compaction's head quotes it), title → items, so the new
 * summary carries them forward as a model would: the earlier summary is the only record of what it replaced. Read in
 * this file's own shape ("2. Title:" then "   - item" lines).
 */
function earlierSections(messages: ReadonlyArray<SimMessage>): Map<string, { title: string; items: string[] }> {
  const out = new Map<string, { title: string; items: string[] }>()
  for (const m of messages) {
    if (m.role !== 'user') continue
    for (const b of m.content) {
      if (b.type !== 'text' || typeof b.text !== 'string') continue
      let current: { title: string; items: string[] } | null = null
      for (const line of b.text.split('\n')) {
        const head = line.match(/^\d+\.\s+(.+?):\s*$/)
        if (head) {
          const key = sectionKey(head[1]!)
          current = out.get(key) ?? { title: head[1]!.trim(), items: [] }
          out.set(key, current)
          continue
        }
        const item = line.match(/^ {3}- (.*)$/)
        if (item && current !== null) {
          if (item[1] !== '(none)' && !current.items.includes(item[1]!)) current.items.push(item[1]!)
        } else if (line.trim() !== '') current = null
      }
    }
  }
  return out
}

function render(title: string, lines: ReadonlyArray<string>, n: number): string {
  const body = lines.length > 0 ? lines.map((l) => `   - ${l}`).join('\n') : '   - (none)'
  return `${n}. ${title}:\n${body}`
}

export function writeSummary(messages: ReadonlyArray<SimMessage>, instruction: string): string {
  const history = readHistory(messages)
  const focus = focusOf(instruction)
  const sections: Array<{ title: string; lines: string[] }> = []
  if (focus) sections.push({ title: `Focus: ${focus}`, lines: focusLines(history, focus) })
  for (const title of requestedSections(instruction)) sections.push({ title, lines: sectionBody(title, history) })
  // What an earlier summary recorded goes first in its section; its sections the new one does not have follow.
  const earlier = earlierSections(messages)
  for (const section of sections) {
    const carried = earlier.get(sectionKey(section.title))
    if (carried === undefined) continue
    section.lines = [...new Set([...carried.items, ...section.lines])]
    earlier.delete(sectionKey(section.title))
  }
  for (const { title, items } of earlier.values()) if (items.length > 0) sections.push({ title, lines: items })
  const summary = sections.map((s, i) => render(s.title, s.lines, i + 1)).join('\n\n')
  const analysis = `The conversation has ${history.requests.length} user request${history.requests.length === 1 ? '' : 's'} and ${history.steps.length} tool call${history.steps.length === 1 ? '' : 's'}${focus ? `; the summary leads with the requested focus (${focus})` : ''}.`
  if (/<analysis>/i.test(instruction)) return `<analysis>\n${analysis}\n</analysis>\n\n<summary>\n${summary}\n</summary>`
  if (/<summary>/i.test(instruction)) return `<summary>\n${summary}\n</summary>`
  return summary
}
