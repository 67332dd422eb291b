/**
 * Reads a request the way the scripted agent needs it: the user's newest words, the tool calls made since then
 * with their results, the tools on offer, and the whole history (for compaction summaries).
 *
 * Text the app adds to a user message is not the user's words: the frozen session context ("# Session context",
 * src-main/engine/prompt/session-context.ts), after-the-breakpoint notes whose first line is a bracketed header
 * ("[Memory saved to …]", src-main/engine/prompt/notes.ts), and anything wrapped whole in a tag
 * (`<system-reminder>…</system-reminder>`). The user's words are the last other text block of the newest user
 * message that is not only tool results (docs/simulator.md).
 */
import { blockText, toolResultText, type SimBlock, type SimMessage, type SimRequest } from '../request'

export interface ToolStep {
  readonly id: string
  readonly name: string
  readonly input: Readonly<Record<string, unknown>>
  /** The tool_result text, or null when the call has no result yet. */
  readonly result: string | null
  readonly isError: boolean
}

export interface OfferedTool {
  readonly name: string
  readonly properties: ReadonlyArray<string>
  readonly required: ReadonlyArray<string>
}

export interface Turn {
  /** The user's newest words ('' when there are none). */
  readonly request: string
  /** Tool calls since those words, oldest first, grouped by the assistant message that made them. */
  readonly rounds: ReadonlyArray<ReadonlyArray<ToolStep>>
  /** Tool calls before those words (earlier turns still in the request), oldest first. */
  readonly earlier: ReadonlyArray<ToolStep>
  readonly tools: ReadonlyMap<string, OfferedTool>
}

const TAGGED = /^\s*<([a-zA-Z][\w-]*)[^>]*>[\s\S]*<\/\1>\s*$/
const SESSION_CONTEXT = /^\s*# Session context\b/
const BRACKETED_NOTE = /^\[[^\]\n]*\](?:\n|$)/

function isAppText(text: string): boolean {
  return TAGGED.test(text) || SESSION_CONTEXT.test(text) || BRACKETED_NOTE.test(text)
}
const INLINE_TAGS = /<(system-reminder|context|note|reminder)[^>]*>[\s\S]*?<\/\1>/g

/** The user's own words in one user message, or null when it has none (tool results or tagged notes only). */
export function userWords(message: SimMessage): string | null {
  return everyUserWords(message).at(-1) ?? null
}

/** Each of the user's own texts in a message, in order: a message stopped before any answer goes with the next one. */
function everyUserWords(message: SimMessage): string[] {
  if (message.role !== 'user') return []
  return message.content
    .filter((b) => b.type === 'text')
    .map(blockText)
    .filter((text) => !isAppText(text))
    .map((text) => text.replace(INLINE_TAGS, '').trim())
    .filter((text) => text.length > 0)
}

/** Index of the newest message carrying the user's own words, or -1. */
export function lastHumanIndex(messages: ReadonlyArray<SimMessage>): number {
  for (let i = messages.length - 1; i >= 0; i--) if (userWords(messages[i]!) !== null) return i
  return -1
}

function resultsById(messages: ReadonlyArray<SimMessage>): Map<string, SimBlock> {
  const results = new Map<string, SimBlock>()
  for (const m of messages) for (const b of m.content) if (b.type === 'tool_result') results.set(String(b.tool_use_id), b)
  return results
}

export function toolSteps(messages: ReadonlyArray<SimMessage>): ToolStep[][] {
  const results = resultsById(messages)
  const rounds: ToolStep[][] = []
  for (const m of messages) {
    if (m.role !== 'assistant') continue
    const calls = m.content.filter((b) => b.type === 'tool_use')
    if (calls.length === 0) continue
    rounds.push(
      calls.map((b) => {
        const result = results.get(String(b.id))
        return {
          id: String(b.id),
          name: String(b.name),
          input: (b.input && typeof b.input === 'object' ? b.input : {}) as Record<string, unknown>,
          result: result ? toolResultText(result) : null,
          isError: result?.is_error === true,
        }
      }),
    )
  }
  return rounds
}

export function offeredTools(request: SimRequest): Map<string, OfferedTool> {
  const tools = new Map<string, OfferedTool>()
  for (const tool of request.tools) {
    const schema = (tool.input_schema ?? {}) as { properties?: Record<string, unknown>; required?: unknown }
    tools.set(tool.name, {
      name: tool.name,
      properties: Object.keys(schema.properties ?? {}),
      required: Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
    })
  }
  return tools
}

/** Words that ask to go on with the request before them (after a Stop, say), not a request of their own. */
const GO_ON = /^(?:please\s+)?(?:go on|continue|carry on|keep going|resume|proceed)(?:\s+please)?[.!]?$/i

/**
 * The user's request and what has been done about it. "go on" (GO_ON) asks for the request before it: the turn is
 * that request, with every call made since it, so a turn stopped halfway carries on from where it was (its reads are
 * not made again) instead of being answered as words the agent does not know.
 */
export function readTurn(request: SimRequest): Turn {
  let human = lastHumanIndex(request.messages)
  let words = human >= 0 ? userWords(request.messages[human]!)! : ''
  while (human >= 0 && GO_ON.test(words)) {
    // Stopped before any answer, the request travels in the same message as the "go on" after it.
    const sameMessage = everyUserWords(request.messages[human]!).filter((w) => !GO_ON.test(w))
    if (sameMessage.length > 0) {
      words = sameMessage.at(-1)!
      break
    }
    const before = lastHumanIndex(request.messages.slice(0, human))
    if (before < 0) break
    human = before
    words = userWords(request.messages[human]!)!
  }
  const since = human >= 0 ? request.messages.slice(human + 1) : request.messages
  return {
    request: words,
    rounds: toolSteps(since),
    earlier: human >= 0 ? toolSteps(request.messages.slice(0, human)).flat() : [],
    tools: offeredTools(request),
  }
}

/** File text without the `N<tab>` line numbers read_file puts in front of each line. */
export function withoutLineNumbers(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n')
  const numbered = lines.filter((l) => /^\d+\t/.test(l)).length
  return numbered > 0 && numbered >= lines.length - 1 ? lines.filter((l) => /^\d+\t/.test(l)).map((l) => l.replace(/^\d+\t/, '')).join('\n') : text
}

export function stepPath(step: ToolStep): string | null {
  const p = step.input.path ?? step.input.file_path ?? step.input.filePath
  return typeof p === 'string' && p.length > 0 ? p : null
}

const samePath = (a: string, b: string) => a.replace(/^(?:\.\/)+/, '') === b.replace(/^(?:\.\/)+/, '')

/** read_file's answer when the lines asked for were already shown and the file has not changed since
 * (renderUnchangedRead, src-main/engine/tools/render.ts): it points back at the earlier read instead of the text. */
const UNCHANGED_READ = /^File unchanged since your last read: /

export function isUnchangedRead(step: ToolStep): boolean {
  return step.name === 'read_file' && !step.isError && UNCHANGED_READ.test(step.result ?? '')
}

/** The text a read showed: its own result, or for an "unchanged" answer the result of the most recent earlier read
 * of the same file that carried the text (in this turn or an earlier one still in the request); null when there is
 * none (compacted away, or read by other means). */
export function readContent(turn: Turn, read: ToolStep): string | null {
  if (read.name !== 'read_file' || read.isError || read.result === null) return null
  if (!isUnchangedRead(read)) return read.result
  const path = stepPath(read)
  if (path === null) return null
  const all = [...turn.earlier, ...turn.rounds.flat()]
  const at = all.indexOf(read)
  for (let i = (at < 0 ? all.length : at) - 1; i >= 0; i--) {
    const step = all[i]!
    if (step.name !== 'read_file' || step.isError || step.result === null || isUnchangedRead(step)) continue
    const other = stepPath(step)
    if (other !== null && samePath(other, path)) return step.result
  }
  return null
}

/** The denial the loop sends back when the user declines a call (resolveApproval, src-main/engine/tools/permissions.ts):
 * `The user declined this edit_file call: "reason". Do not retry it as is; …` (the reason part only when given). */
const USER_DECLINED = /^The user declined this [\w-]+ call(?:: "([\s\S]*)")?\. Do not retry/

/** For a call the user declined: the reason they gave ('' when none); null for any other step. */
export function declinedReason(step: ToolStep): string | null {
  if (!step.isError || step.result === null) return null
  const m = step.result.trim().match(USER_DECLINED)
  return m ? (m[1] ?? '').trim() : null
}
