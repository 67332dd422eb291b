/**
 * renderRequest: the plan as the exact Messages API body (`MessageCreateParams`, docs/reference/anthropic-api.md
 * §2.1). Keys always come in the same order — model, max_tokens, system, tools, messages, thinking — and every
 * block was rebuilt with a fixed key order when planned, so the same plan always gives the same
 * `JSON.stringify` bytes.
 */
import type { WireRequest } from '../model/wire'
import type { PromptPlan } from './plan'

export function renderRequest(plan: PromptPlan): WireRequest {
  const system = plan.system.map((b) => b.wire)
  const messages = plan.messages.map((m) => m.wire)
  const thinking = plan.thinking
  if (plan.tools.length === 0) {
    return thinking === null
      ? { model: plan.model, max_tokens: plan.maxTokens, system, messages }
      : { model: plan.model, max_tokens: plan.maxTokens, system, messages, thinking: canonicalThinking(thinking) }
  }
  const tools = plan.tools.map((t) => t.wire)
  return thinking === null
    ? { model: plan.model, max_tokens: plan.maxTokens, system, tools, messages }
    : { model: plan.model, max_tokens: plan.maxTokens, system, tools, messages, thinking: canonicalThinking(thinking) }
}

function canonicalThinking(thinking: NonNullable<WireRequest['thinking']>): NonNullable<WireRequest['thinking']> {
  if (thinking.type === 'enabled') return { type: 'enabled', budget_tokens: thinking.budget_tokens }
  if (thinking.type === 'adaptive') return thinking.display ? { type: 'adaptive', display: thinking.display } : { type: 'adaptive' }
  return { type: 'disabled' }
}
