/**
 * The loop's compaction hook for one session (docs/compaction.md "When it runs"): before each pass, a compaction the
 * model asked for with its `compact` tool, else automatic compaction when the context — on the real count of the
 * last response — reaches the threshold. Automatic compaction retries with only the last step kept when the usual
 * tail leaves nothing to summarise, never runs twice without a pass between, and stops for the session after three
 * failures in a row; each failure is a notice in the conversation. A compaction the user cancels (its card's Cancel,
 * Esc) ends alone: the turn goes on with the conversation as it was, and automatic compaction waits for the next turn.
 */
import { afterAutoAttempt, decideAuto, type AttemptOutcome } from '../../engine/compaction/policy'
import type { CompactionHook } from '../../engine/loop/ports'
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import { compactInput } from '../../engine/tools/schemas'
import type { CompactionHost, CompactOutcome, SessionCompaction } from './compaction'

export interface HookDeps {
  readonly host: CompactionHost
  readonly compaction: SessionCompaction
  /** The turn's model-call cap for extensions (and summary passes). */
  readonly modelCalls: { take(): boolean }
  /** The context size now: real where a pass measured it, else estimated. */
  readonly contextTokens: () => number
  readonly lastPassId: () => string | null
  /** Runs before the compaction check (context sections, per-pass context edits). */
  readonly beforeCheck?: (signal: AbortSignal) => Promise<void>
}

function attempt(outcome: CompactOutcome): AttemptOutcome {
  switch (outcome.status) {
    case 'applied':
      return 'applied'
    case 'cancelled':
      return 'cancelled'
    case 'nothing_to_compact':
      return 'nothing_to_compact'
    case 'refused':
    case 'stale':
      return 'refused'
    case 'failed':
    case 'draft':
      return 'failed'
  }
}

/** Cancelled on its own (its card's Cancel, Esc), not by the turn stopping: the turn goes on. */
const cancelledAlone = (outcome: CompactOutcome, turn: AbortSignal): boolean => outcome.status === 'cancelled' && !turn.aborted

export function createCompactionHook(deps: HookDeps): CompactionHook {
  const { host, compaction } = deps
  const notice = (level: 'info' | 'warning', text: string) => {
    const entries = host.log.append([{ kind: 'notice', source: 'compaction', level, text }])
    host.emitLoop({ type: 'entries_appended', entries })
  }
  // The hook lives for one turn: an automatic compaction the user cancelled is not begun again until the next one.
  let autoCancelled = false
  return {
    async beforePass(signal) {
      await deps.beforeCheck?.(signal)
      const state = host.state()
      const pending = state.compaction.pending
      if (pending !== null) {
        // Cleared first: a compaction that fails must not be asked for again on every pass.
        host.save({ compaction: { ...state.compaction, pending: null } })
        const upto = pending.upto === null ? null : pending.upto.startsWith('ent_') ? ({ kind: 'entry', entryId: pending.upto } as const) : ({ kind: 'tool_use', toolUseId: pending.upto } as const)
        const outcome = await compaction.compact(
          { trigger: upto ? 'partial' : 'tool', focus: pending.focus, instructions: pending.instructions, upto, dryRun: false, forceSummary: true, modelCalls: deps.modelCalls, notify: true },
          signal,
        )
        if (cancelledAlone(outcome, signal)) notice('info', 'You cancelled the compaction the model asked for: the turn goes on with the conversation as it was.')
        return
      }
      // Cancelled by the user in this turn: not started again before every pass of it. The next message tries again.
      if (autoCancelled) return
      const lastPassId = deps.lastPassId()
      const decision = decideAuto({ settings: host.settings(), windowTokens: host.windowTokens(), tokens: deps.contextTokens(), lastPassId, state: state.compaction.auto })
      if (!decision.compact) return
      const options = { trigger: 'auto' as const, focus: null, instructions: null, upto: null, dryRun: false, forceSummary: false, adaptKeep: true, modelCalls: deps.modelCalls, notify: false }
      let outcome = await compaction.compact(options, signal)
      // The usual tail can hold everything (one long step): keep only the last step rather than fail.
      if (outcome.status === 'nothing_to_compact' && host.settings().keepSteps > 1) outcome = await compaction.compact({ ...options, keepSteps: 1 }, signal)
      const result = attempt(outcome)
      const next = afterAutoAttempt(host.state().compaction.auto, result, lastPassId, outcome.status === 'applied' || outcome.status === 'draft' ? '' : outcome.message)
      host.save({ compaction: { ...host.state().compaction, auto: next.state } })
      if (cancelledAlone(outcome, signal)) {
        autoCancelled = true
        const share = Math.round((decision.tokens / host.windowTokens()) * 100)
        notice('info', `You cancelled the automatic compaction: this turn goes on uncompacted, its context at ${share}% of the window. The next message tries again while it stays over the threshold; /compact compacts now.`)
        return
      }
      if (result !== 'applied' && result !== 'cancelled' && 'message' in outcome) notice('warning', `Automatic compaction did not run: ${outcome.message}`)
      if (next.stopped !== null) notice('warning', next.stopped)
    },

    fromTool(toolUseId, input): ToolOutcome {
      const parsed = compactInput.safeParse(input ?? {})
      if (!parsed.success) return errorOutcome('invalid_input', `compact: ${parsed.error.issues.map((i) => i.message).join('; ')}`)
      const { upto, focus, instructions } = parsed.data
      const state = host.state()
      host.save({ compaction: { ...state.compaction, pending: { toolUseId, upto: upto ?? null, focus: focus ?? null, instructions: instructions ?? null } } })
      const what = upto ? `everything up to ${upto}` : `all but the last ${host.settings().keepSteps} steps`
      return okOutcome(`Compaction scheduled: ${what} will be summarised before the next request${focus ? `, keeping above all: ${focus}` : ''}.`)
    },
  }
}
