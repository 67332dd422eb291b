/**
 * Runs Loupe's compaction on a conversation another agent had (docs/compaction.md "Real compactions, replayed"): the
 * conversation as entries, Loupe's own tools and system blocks around it, a model client (the simulator in tests and
 * the bench). The session's passes are played first — the pass that produced the first kept message, then the last
 * one — so the cache holds what the session's own passes would have left, and the summary request is priced as it
 * would be in a live session. Also used to price the two ways of asking for a summary against each other.
 */
import { composeCheckpoint, entriesFromMessages, findSplit, runCompaction, standaloneSummaryPass, STANDALONE_SYSTEM, summaryInstruction, textualise, type CompactionDraft, type PrefixPlanner } from '../../engine/compaction'
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../engine/compaction/settings'
import { prefixSummaryPass } from '../../engine/compaction/summary-request'
import type { Entry, PassId } from '../../engine/conversation/entries'
import { HistoryCache, modelView } from '../../engine/conversation/history'
import type { PassCommit } from '../../engine/loop/ports'
import type { Usage, WireMessage } from '../../engine/model/wire'
import type { Clock, Hasher, ModelClient } from '../../engine/ports'
import { buildPromptPlan, renderRequest } from '../../engine/prompt'
import { emptyGatheredContext } from '../../engine/prompt/gathered'
import type { HistoryMessage } from '../../engine/prompt/input'
import { freezeSession } from '../../engine/prompt/snapshot'
import { LISTS_SKILLS, OFFERED_TOOLS, promptSettings } from '../session/prompt-settings'
import { costUsd, thinkingFor } from '../model/models'

export interface ReplaySetup {
  readonly messages: ReadonlyArray<WireMessage>
  readonly client: ModelClient
  readonly model: string
  readonly hasher: Hasher
  readonly clock: Clock
  /** The project folder the conversation ran in (for paths relative to it); any string. */
  readonly root: string
  readonly settings?: CompactionSettings
  /** The app's thinking setting (default on, as in a live session with the app's defaults; decision 0010). */
  readonly thinking?: boolean
}

export interface ReplaySession {
  readonly entries: ReadonlyArray<Entry>
  readonly history: ReadonlyArray<HistoryMessage>
  readonly planner: PrefixPlanner
  readonly maxTokens: number
}

export function replaySession(setup: ReplaySetup): ReplaySession {
  const entries = entriesFromMessages(setup.messages, { sessionId: 'replay', startAt: setup.clock.now() - 60_000, stepMs: 1 })
  const history = new HistoryCache().fromView(modelView(entries))
  const frozen = freezeSession(emptyGatheredContext(setup.root, { projectName: setup.root.split('/').pop() || 'project', date: '2026-02-12' }), { contextWindowTokens: 200_000, skills: LISTS_SKILLS })
  // The passes' thinking, as the live runtime sends it: the summary request must carry it to read their cache.
  const thinking = thinkingFor(setup.model, setup.thinking ?? true)
  const planner: PrefixPlanner = (h, tail, maxTokens) =>
    buildPromptPlan({
      model: setup.model,
      maxTokens,
      ...(thinking ? { thinking } : {}),
      settings: promptSettings(false),
      tools: OFFERED_TOOLS,
      project: frozen.project,
      session: frozen.session,
      context: frozen.context,
      history: h,
      previousTailIndex: tail,
      hasher: setup.hasher,
    })
  return { entries, history, planner, maxTokens: thinking?.type === 'adaptive' ? 32_000 : 8192 }
}

function total(u: Usage): number {
  return u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
}

/** Plays the session's own passes: the one that ended at the split, then the whole history (its last pass). */
export async function warmCache(setup: ReplaySetup, session: ReplaySession, splitIndex: number): Promise<Usage> {
  const first = session.planner(session.history.slice(0, splitIndex), null, session.maxTokens)
  const warm = await setup.client.send(renderRequest(first), {})
  if (!warm.ok) throw new Error(`warm-up pass failed: ${warm.error.message}`)
  const last = session.planner(session.history, splitIndex - 1, session.maxTokens)
  const outcome = await setup.client.send(renderRequest(last), {})
  if (!outcome.ok) throw new Error(`last pass failed: ${outcome.error.message}`)
  return outcome.message.usage
}

export interface ReplayResult {
  readonly draft: CompactionDraft
  readonly summary: string
  /** The real count (the model service's) of the last pass before, and of the first request after. */
  readonly tokensBefore: number
  readonly tokensAfter: number
  readonly summaryUsage: ReadonlyArray<Usage>
  readonly costUsd: number
}

/** A manual compaction of the whole conversation, as `/compact` would run it in a live session. */
export async function replayCompaction(setup: ReplaySetup, focus: string | null = null): Promise<ReplayResult> {
  const session = replaySession(setup)
  const settings = setup.settings ?? DEFAULT_COMPACTION_SETTINGS
  const split = findSplit(session.history, settings.keepSteps, null)
  if (!split.ok) throw new Error(split.reason)
  const last = await warmCache(setup, session, split.index)
  const passes: PassCommit[] = []
  const result = await runCompaction(
    {
      model: setup.client,
      log: {
        commitPass(pass) {
          passes.push(pass)
          return { passId: `replay_summary_${passes.length}` as PassId, entries: [] }
        },
      },
      planner: session.planner,
      clock: setup.clock,
      priceUsd: (model, usage) => costUsd(model, usage),
    },
    {
      entries: session.entries,
      previousTailIndex: session.history.length - 1,
      settings,
      windowTokens: 200_000,
      realTokens: total(last) + last.output_tokens,
      model: setup.model,
      maxOutputTokens: session.maxTokens,
      root: setup.root,
      origin: { kind: 'session_start' },
    },
    { trigger: 'manual', focus, instructions: null, upto: null, forceSummary: true },
    new AbortController().signal,
  )
  if (result.status !== 'draft' || result.draft.summary === null) throw new Error(`replay compaction: ${result.status}${'reason' in result ? ` (${result.reason})` : ''}`)
  const composed = composeCheckpoint({ draft: result.draft, entries: session.entries, files: [], pins: [], systemText: '', sessionBlock: null })
  if (!composed.ok) throw new Error(composed.reason)
  const after = session.planner(composed.history, null, session.maxTokens)
  const { max_tokens: _m, stream: _s, ...countable } = renderRequest(after)
  return {
    draft: result.draft,
    summary: result.draft.summary,
    tokensBefore: total(last),
    tokensAfter: await setup.client.countTokens(countable),
    summaryUsage: passes.flatMap((p) => (p.message ? [p.message.usage] : [])),
    costUsd: result.draft.costUsd,
  }
}

/** What one summary request costs in each form, on a warmed cache (the choice in docs/decisions/0006-compaction.md). */
export async function priceForms(setup: ReplaySetup): Promise<Record<'cut' | 'upto' | 'standalone', { usd: number; usage: Usage }>> {
  const session = replaySession(setup)
  const split = findSplit(session.history, DEFAULT_COMPACTION_SETTINGS.keepSteps, null)
  if (!split.ok) throw new Error(split.reason)
  const out: Partial<Record<'cut' | 'upto' | 'standalone', { usd: number; usage: Usage }>> = {}
  const instruction = (form: 'cut' | 'upto' | 'standalone') => summaryInstruction({ form, focus: null, instructions: null, keptStart: null, keptSteps: DEFAULT_COMPACTION_SETTINGS.keepSteps })
  for (const form of ['cut', 'upto', 'standalone'] as const) {
    // Each form on the cache the session's own passes left, as a live session would have it.
    await warmCache(setup, session, split.index)
    const planned =
      form === 'standalone'
        ? standaloneSummaryPass(setup.model, session.maxTokens, STANDALONE_SYSTEM, [...textualise(session.history.slice(0, split.index).map((m) => m.message)), { role: 'user', content: [{ type: 'text', text: instruction('standalone') }] }], { kind: 'session_start' })
        : prefixSummaryPass(session.planner, session.history, { form, splitIndex: split.index, previousTailIndex: session.history.length - 1, instruction: instruction(form), maxTokens: session.maxTokens })
    const outcome = await setup.client.send(planned.request, {})
    if (!outcome.ok) throw new Error(`${form} summary failed: ${outcome.error.message}`)
    out[form] = { usd: costUsd(setup.model, outcome.message.usage) ?? 0, usage: outcome.message.usage }
  }
  return out as Record<'cut' | 'upto' | 'standalone', { usd: number; usage: Usage }>
}
