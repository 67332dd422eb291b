/**
 * Fakes for compaction tests: a session of entries built step by step, the session's planner (the real prompt
 * builder over a small frozen project), a model that answers from a script, and a log that records passes.
 */
import type { Entry, EntryBody, EntryId, PassId } from '../../../src-main/engine/conversation/entries'
import type { PassCommit, SessionLog } from '../../../src-main/engine/loop/ports'
import type { AssistantContentBlock, AssistantMessage, ImageBlock, TextBlock, Usage, WireRequest } from '../../../src-main/engine/model/wire'
import type { ModelClient, ModelOutcome, ModelSendOptions } from '../../../src-main/engine/ports'
import { buildPromptPlan } from '../../../src-main/engine/prompt'
import type { PrefixPlanner } from '../../../src-main/engine/compaction'
import { baseInput } from '../prompt/fakes'

export class FakeSession {
  readonly entries: Entry[] = []
  private pass = 0
  private tool = 0
  now = 1_000_000

  append(body: EntryBody): Entry {
    const seq = this.entries.length + 1
    const entry = { ...body, id: `e${seq}` as EntryId, sessionId: 's1', seq, at: this.now } as Entry
    this.entries.push(entry)
    this.now += 1000
    return entry
  }

  user(text: string, images = 0): Entry {
    const image: ImageBlock = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }
    const content: Array<TextBlock | ImageBlock> = [...Array.from({ length: images }, () => image), { type: 'text', text }]
    return this.append({ kind: 'user_message', content })
  }

  assistant(content: ReadonlyArray<AssistantContentBlock>): Entry {
    this.pass++
    return this.append({ kind: 'assistant_message', passId: `p${this.pass}` as PassId, content, stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn', partial: false })
  }

  toolId(): string {
    return `toolu_${String(++this.tool).padStart(4, '0')}`
  }

  /** An assistant message calling `calls`, then their results. */
  step(calls: ReadonlyArray<{ name: string; input: unknown; result: string }>, options: { text?: string; thinking?: string } = {}): void {
    const blocks: AssistantContentBlock[] = []
    if (options.thinking !== undefined) blocks.push({ type: 'thinking', thinking: options.thinking, signature: `sig-${options.thinking.length}-${'x'.repeat(40)}` })
    if (options.text !== undefined) blocks.push({ type: 'text', text: options.text })
    const ids = calls.map(() => this.toolId())
    calls.forEach((c, i) => blocks.push({ type: 'tool_use', id: ids[i]!, name: c.name, input: c.input }))
    this.assistant(blocks)
    calls.forEach((c, i) => this.append({ kind: 'tool_result', toolUseId: ids[i]!, toolName: c.name, content: c.result, isError: false, outcome: 'ran' }))
  }

  reply(text: string): void {
    this.assistant([{ type: 'text', text }])
    this.append({ kind: 'turn_ended', reason: 'end_turn' })
  }
}

/** The session's planner: the real builder over a small frozen project. */
export function fakePlanner(): PrefixPlanner {
  const base = baseInput()
  return (history, previousTailIndex, maxTokens) => buildPromptPlan({ ...base, history, previousTailIndex, maxTokens })
}

export const ZERO_USAGE: Usage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }

export type Answer = { text: string; toolUse?: boolean; usage?: Usage } | { fail: string } | 'hang'

/** A model that answers each request with the next scripted answer; 'hang' waits until the signal aborts. */
export function scriptedModel(answers: Answer[]): ModelClient & { requests: WireRequest[] } {
  const requests: WireRequest[] = []
  let n = 0
  return {
    requests,
    endpoint: { kind: 'simulator', baseUrl: 'http://fake' },
    async countTokens() {
      return 0
    },
    async send(request: WireRequest, options: ModelSendOptions): Promise<ModelOutcome> {
      requests.push(request)
      const answer = answers[Math.min(n++, answers.length - 1)] ?? { text: 'summary' }
      const attempt = { startedAt: 0, firstByteAt: 1, endedAt: 2, status: 200, requestId: 'req', requestBody: JSON.stringify(request), requestHeaders: {}, responseHeaders: {}, responseBody: '', error: null }
      if (answer === 'hang') {
        options.onEvent?.({ type: 'message_started', messageId: 'msg_h', model: request.model })
        options.onEvent?.({ type: 'text_delta', index: 0, text: 'Partial sum' })
        await new Promise<void>((resolve) => {
          if (options.signal?.aborted) return resolve()
          options.signal?.addEventListener('abort', () => resolve(), { once: true })
        })
        const partial: AssistantMessage = { id: 'msg_h', model: request.model, content: [{ type: 'text', text: 'Partial sum' }], stop_reason: null, usage: { ...ZERO_USAGE, input_tokens: 100 } }
        return { ok: false, error: { kind: 'aborted', message: 'aborted', status: null }, partial, attempts: [attempt] }
      }
      if ('fail' in answer) return { ok: false, error: { kind: 'server_error', message: answer.fail, status: 500 }, partial: null, attempts: [attempt] }
      options.onEvent?.({ type: 'text_delta', index: 0, text: answer.text })
      const content: AssistantContentBlock[] = [{ type: 'text', text: answer.text }]
      if (answer.toolUse) content.push({ type: 'tool_use', id: 'toolu_sum', name: 'read_file', input: { path: 'x' } })
      return { ok: true, message: { id: `msg_${n}`, model: request.model, content, stop_reason: answer.toolUse ? 'tool_use' : 'end_turn', usage: answer.usage ?? { ...ZERO_USAGE, output_tokens: 10 } }, attempts: [attempt] }
    },
  }
}

export function fakeLog(): Pick<SessionLog, 'commitPass'> & { passes: PassCommit[] } {
  const passes: PassCommit[] = []
  return {
    passes,
    commitPass(pass) {
      passes.push(pass)
      return { passId: `sp${passes.length}` as PassId, entries: [] }
    },
  }
}
