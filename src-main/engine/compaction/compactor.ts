/**
 * The built-in compactor (stage 2), written against the same `Compactor` interface a project's module implements:
 * one summary request sharing the cached prefix, and a standalone request when the model calls a tool instead of
 * answering in text (docs/compaction.md "Stage 2, the summary").
 */
import type { ModelAnswer, Compactor } from './extensions'
import { STANDALONE_SYSTEM } from './summary-instruction'
import { extractSummary } from './summary-text'
import { textualise } from './summary-request'

/** A summary call that did not give a summary; `cancelled` when the user stopped it. */
export class SummaryCallError extends Error {
  constructor(
    message: string,
    readonly cancelled: boolean,
  ) {
    super(message)
    this.name = 'SummaryCallError'
  }
}

function failed(answer: Extract<ModelAnswer, { ok: false }>): SummaryCallError {
  return new SummaryCallError(answer.message, answer.cancelled)
}

export const defaultCompactor: Compactor = {
  name: 'default',
  async summarise(input, ctx) {
    const form = ctx.preferredForm
    const first = await ctx.askWithPrefix(ctx.defaultInstruction(form), form)
    if (!first.ok) throw failed(first)
    const summary = extractSummary(first.text)
    if (!first.calledTool && summary !== '') return { summary, form }
    const second = await ctx.ask({
      system: STANDALONE_SYSTEM,
      messages: [...textualise(input.summarised), { role: 'user', content: [{ type: 'text', text: ctx.defaultInstruction('standalone') }] }],
    })
    if (!second.ok) throw failed(second)
    const fallback = extractSummary(second.text)
    if (fallback === '') throw new SummaryCallError('The model answered the summary request without a summary.', false)
    return { summary: fallback, form: 'standalone' }
  },
}
