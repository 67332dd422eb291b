/**
 * A frozen session block rendered alone, as the prompt builder would send it: what the Files view prices an edit by,
 * and what a session import runs once to know a frozen state renders at all.
 */
import type { Hasher } from '../ports'
import type { WireMessage } from '../model/wire'
import { buildPromptPlan } from './builder'
import type { FrozenSession, SessionSection } from './snapshot'

/** A one-word user message: a plan needs a history, and the block does not depend on it. */
export const PROBE_MESSAGE: WireMessage = { role: 'user', content: [{ type: 'text', text: 'Hi.' }] }

/** Settings for rendering a session block alone: they shape system[0], which is not taken from this plan. */
const RENDER_SETTINGS = { features: { sandbox: false, hooks: false, todo: false, skills: false }, staticCacheTtl1h: false } as const

/** The session block's text as the prompt builder renders it for `section` (null when it would be empty). */
export function sessionBlockText(frozen: FrozenSession, section: SessionSection, model: string, hasher: Hasher): string | null {
  const plan = buildPromptPlan({
    model,
    maxTokens: 1,
    settings: RENDER_SETTINGS,
    tools: [],
    project: frozen.project,
    session: section,
    context: frozen.context,
    history: [{ message: PROBE_MESSAGE, provenance: { entryIds: [], kind: 'synthetic' } }],
    previousTailIndex: null,
    hasher,
  })
  return plan.system.find((b) => b.stability === 'session')?.wire.text ?? null
}
