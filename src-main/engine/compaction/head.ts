/**
 * The head message that opens the history after a summary (docs/compaction.md
 * "What the model sees after a checkpoint"): a marker, the session's first request verbatim, the summary, then the
 * files offered back, the pins that were re-injected and — when it was summarised — the user's latest request
 * verbatim. Every block but the last request starts with a line in brackets, the app's way of marking its own text
 * (docs/simulator.md "What counts as the user's words").
 */
import type { CheckpointTrigger } from '../conversation/checkpoint'
import type { TextBlock } from '../model/wire'

/** A first request longer than this is cut (with a note) in the head; the summary quotes it too. */
export const FIRST_REQUEST_MAX_CHARS = 20_000

export interface ReofferedFile {
  readonly path: string
  /** The file as read_file shows it now; null when it is too large to offer within the budget. */
  readonly text: string | null
  readonly tokens: number
}

export interface HeadInput {
  readonly trigger: CheckpointTrigger
  readonly focus: string | null
  readonly keptSteps: number
  readonly firstRequest: string | null
  /** The newest request of the user when it is in the summarised part (it would otherwise be behind the head). */
  readonly latestRequest: string | null
  readonly summary: string
  readonly files: ReadonlyArray<ReofferedFile>
  readonly pins: ReadonlyArray<string>
}

const TRIGGER_WORDS: Readonly<Record<CheckpointTrigger, string>> = {
  auto: 'automatically, the context was nearly full',
  manual: 'at the user’s request',
  partial: 'in part, at the user’s request',
  tool: 'at the model’s request',
}

function capped(text: string): string {
  if (text.length <= FIRST_REQUEST_MAX_CHARS) return text
  return `${text.slice(0, FIRST_REQUEST_MAX_CHARS)}\n[… ${text.length - FIRST_REQUEST_MAX_CHARS} more characters of this request are in the summary’s quotes or the session log]`
}

export function buildHead(input: HeadInput): TextBlock[] {
  const focus = input.focus ? `, keeping above all: ${input.focus.replace(/\s+/g, ' ').trim()}` : ''
  const kept = input.keptSteps === 1 ? ' The last step follows verbatim.' : input.keptSteps > 1 ? ` The last ${input.keptSteps} steps follow verbatim.` : ''
  const parts = [`[Compacted ${TRIGGER_WORDS[input.trigger]}${focus}. The earlier conversation is replaced by the summary below.${kept}]`]
  if (input.firstRequest !== null && input.firstRequest !== input.latestRequest) {
    parts.push(`The first request of this session, verbatim:\n\n${capped(input.firstRequest)}`)
  }
  parts.push(`Summary of the earlier conversation:\n\n${input.summary}`)
  const blocks: TextBlock[] = [{ type: 'text', text: parts.join('\n\n') }]
  for (const f of input.files) {
    if (f.text !== null) blocks.push({ type: 'text', text: `[File read recently, offered again as it is now: ${f.path}]\n${f.text}` })
  }
  const pathOnly = input.files.filter((f) => f.text === null)
  if (pathOnly.length > 0) {
    blocks.push({ type: 'text', text: `[Files read recently, named here to keep the compacted context small; read them again if you need them]\n${pathOnly.map((f) => `- ${f.path} (≈${f.tokens} tokens)`).join('\n')}` })
  }
  if (input.pins.length > 0) blocks.push(pinsBlock(input.pins))
  if (input.latestRequest !== null) {
    blocks.push({ type: 'text', text: '[The user’s latest request, verbatim, follows.]' })
    blocks.push({ type: 'text', text: input.latestRequest })
  }
  return blocks
}

export function pinsBlock(pins: ReadonlyArray<string>): TextBlock {
  return { type: 'text', text: `[Pinned by the user: kept verbatim through every compaction]\n${pins.map((p) => `- ${p}`).join('\n')}` }
}
