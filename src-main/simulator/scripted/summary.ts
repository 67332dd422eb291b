/**
 * Extractive compaction summaries. The instruction (the last user message) names the sections it wants as a
 * numbered list or as headings; each section is filled with text lifted from the conversation: every user
 * request quoted, files and commands touched, errors, open items, the current work. A focus named in the
 * instruction ("focus on X") comes first. `<analysis>`/`<summary>` wrappers are used when the instruction asks.
 */
import type { SimMessage } from '../request'
import { toolSteps, userWords, type ToolStep } from './conversation'

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

function files(h: History): string[] {
  const seen = new Map<string, Set<string>>()
  for (const s of h.steps) {
    const p = pathOf(s)
    if (!p) continue
    const verbs = seen.get(p) ?? new Set<string>()
    verbs.add(VERB[s.name] ?? s.name)
    seen.set(p, verbs)
  }
  return [...seen].map(([p, verbs]) => `\`${p}\` (${[...verbs].join(', ')})`)
}

function commands(h: History): string[] {
  return h.steps.filter((s) => s.name === 'bash').map((s) => `\`${String(s.input.command ?? s.input.cmd ?? '')}\`${s.isError ? ' (failed)' : ''}`)
}

function errors(h: History): string[] {
  return h.steps.filter((s) => s.isError).map((s) => `${s.name}${pathOf(s) ? ` on \`${pathOf(s)}\`` : ''}: ${(s.result ?? '').trim().split('\n')[0] ?? ''}`)
}

function openItems(h: History): string[] {
  const items: string[] = []
  const todos = [...h.steps].reverse().find((s) => s.name === 'todo_write')
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
  for (const text of [...h.requests, ...h.assistantTexts]) for (const m of text.matchAll(/`([^`\n]{2,60})`/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10).map(([t]) => `\`${t}\``)
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
  if (/file|code/.test(t)) return files(h)
  if (/command|shell|bash/.test(t)) return commands(h)
  if (/error|fix|problem|fail/.test(t)) return errors(h)
  if (/pending|open|todo|next|remaining/.test(t)) return openItems(h)
  if (/current|recent|work|progress/.test(t)) return currentWork(h)
  if (/concept|technical|decision|term/.test(t)) return keyTerms(h)
  return []
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
  const summary = sections.map((s, i) => render(s.title, s.lines, i + 1)).join('\n\n')
  const analysis = `The conversation has ${history.requests.length} user request${history.requests.length === 1 ? '' : 's'} and ${history.steps.length} tool call${history.steps.length === 1 ? '' : 's'}${focus ? `; the summary leads with the requested focus (${focus})` : ''}.`
  if (/<analysis>/i.test(instruction)) return `<analysis>\n${analysis}\n</analysis>\n\n<summary>\n${summary}\n</summary>`
  if (/<summary>/i.test(instruction)) return `<summary>\n${summary}\n</summary>`
  return summary
}
