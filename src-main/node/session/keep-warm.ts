/**
 * Keeps a session's cache warm through an idle gap (docs/cache-attribution.md, "Keep-warm";
 * docs/decisions/0009-cache-keep-warm.md): after each pass of the conversation, one cache pre-warm is planned for
 * shortly before that pass's 5-minute tail entry would expire. If the session is still waiting then — for the
 * user's next message, an approval, or a tool — it sends the next pass's prefix with a 1-hour breakpoint at its tail
 * (engine/cache/keep-warm.ts), and records the request as a pass of kind `keep_warm`, attributed like any other.
 *
 * At most one per gap: a pass arms it, and the next pass, a message sent, a compaction, an edit applied now or the
 * session closing disarms it. One already sent is left to land and be recorded with its cost (the service bills a
 * request that reached it, aborted or not); only closing the session aborts it. The session runtime and the replay harness both drive this
 * class, so the replay's figures are the runtime's behaviour.
 */
import { keepWarmDecision, prewarmReachesLastTail, prewarmStripsThinking, KEEP_WARM_LATEST_MS, type KeepWarmDecision, type ModelLookup } from '../../engine/cache'
import type { Clock, ModelClient } from '../../engine/ports'
import type { PromptPlan } from '../../engine/prompt/plan'
import { renderRequest } from '../../engine/prompt/render'
import type { PassSummary } from '../store/passes'
import type { StoreSessionLog } from './store-log'

/** Timers, so a test (or a replay) can run them on its own clock. */
export interface Scheduler {
  setTimer(run: () => void, delayMs: number): unknown
  clearTimer(handle: unknown): void
}

/** Node's timers; unref'd, so a planned pre-warm never keeps the process alive. */
export const nodeScheduler: Scheduler = {
  setTimer: (run, delayMs) => {
    const timer = setTimeout(run, Math.max(0, delayMs))
    timer.unref?.()
    return timer
  },
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export interface KeepWarmDeps {
  readonly clock: Clock
  readonly scheduler: Scheduler
  /** The model client, read when the pre-warm goes out (a key set meanwhile changes it). */
  readonly client: () => ModelClient
  readonly log: StoreSessionLog
  readonly models: ModelLookup
  /** The setting, read when a pass arms the pre-warm and again when it fires. */
  readonly enabled: () => boolean
  /** The pre-warm's plan from the session as it stands when it fires; null when there is nothing to warm. */
  readonly plan: (pass: PassSummary) => PromptPlan | null
  readonly onError?: (error: unknown) => void
}

export class KeepWarm {
  private timer: { readonly handle: unknown; readonly pass: PassSummary; readonly deadline: number } | null = null
  private inFlight: { readonly controller: AbortController; readonly done: Promise<PassSummary | null> } | null = null
  /** Pre-warms sent and not yet collected by `settled()` (the replay and tests collect them); the newest few only. */
  private readonly sent: Array<Promise<PassSummary | null>> = []
  private closed = false

  constructor(private readonly deps: KeepWarmDeps) {}

  /**
   * A pass of the conversation was committed: plan the pre-warm for the gap that may follow it. Returns the
   * decision (null when the setting is off or the pass is not one to keep).
   */
  passCommitted(pass: PassSummary): KeepWarmDecision | null {
    this.cancel()
    if (this.closed || !this.deps.enabled() || pass.kind !== 'main' || pass.status !== 'done') return null
    const startedAt = pass.attempts.at(-1)?.startedAt ?? pass.queuedAt
    const decision = keepWarmDecision({ startedAt, now: this.deps.clock.now(), usage: pass.usage, model: this.deps.models(pass.model) })
    if (decision.send) {
      const handle = this.deps.scheduler.setTimer(() => this.fire(pass), decision.at - this.deps.clock.now())
      this.timer = { handle, pass, deadline: startedAt + KEEP_WARM_LATEST_MS }
    }
    return decision
  }

  /** Whether a pre-warm is planned and not sent yet. */
  get pending(): boolean {
    return this.timer !== null
  }

  /** The gap is over: nothing more is sent for it. A pre-warm already sent lands and is recorded. */
  cancel(): void {
    if (this.timer) this.deps.scheduler.clearTimer(this.timer.handle)
    this.timer = null
  }

  /** The session closes: nothing is planned again, and a pre-warm in flight is aborted. */
  close(): void {
    this.closed = true
    this.cancel()
    this.inFlight?.controller.abort()
  }

  /**
   * Resolves when every pre-warm sent since the last call has been recorded (or failed to be), with the passes
   * recorded (null for one that never left).
   */
  async settled(): Promise<Array<PassSummary | null>> {
    const sent = this.sent.splice(0)
    return Promise.all(sent)
  }

  private fire(pass: PassSummary): void {
    const deadline = this.timer?.deadline ?? Number.NEGATIVE_INFINITY
    this.timer = null
    // Timers stand still while the machine sleeps: woken after the 5-minute entries went, a pre-warm would write the
    // whole prefix at the 1-hour price, which costs more than the miss it was for.
    if (this.closed || this.deps.clock.now() > deadline) return
    const client = this.deps.client()
    if (!this.deps.enabled() || !client.prewarm) return
    let plan: PromptPlan | null
    try {
      plan = this.deps.plan(pass)
    } catch (err) {
      this.deps.onError?.(err)
      return
    }
    if (!plan || plan.model !== pass.model || !prewarmReachesLastTail(plan)) return
    if (this.deps.models(pass.model).stripsPriorThinking && prewarmStripsThinking(plan.messages.map((m) => m.wire))) return
    const controller = new AbortController()
    const done = this.send(client, plan, controller.signal).catch((err: unknown) => {
      this.deps.onError?.(err)
      return null
    })
    const flight = { controller, done }
    this.inFlight = flight
    this.sent.push(done)
    // Only the replay and tests collect them; in the app they would pile up one per idle gap.
    if (this.sent.length > 64) this.sent.shift()
    const landed = (): void => {
      if (this.inFlight === flight) this.inFlight = null
    }
    done.then(landed, landed)
  }

  private async send(client: ModelClient, plan: PromptPlan, signal: AbortSignal): Promise<PassSummary | null> {
    const queuedAt = this.deps.clock.now()
    const outcome = await client.prewarm!(renderRequest(plan), { signal })
    // Nothing went over the wire (aborted before the request left): nothing to record.
    if (outcome.attempts.length === 0) return null
    const last = outcome.attempts.at(-1)!
    const status = outcome.ok ? 'done' : outcome.error.kind === 'aborted' ? 'cancelled' : 'failed'
    const { summary } = this.deps.log.commitPass(
      {
        kind: 'keep_warm',
        model: plan.model,
        status,
        queuedAt,
        firstByteAt: last.firstByteAt,
        doneAt: this.deps.clock.now(),
        plan,
        attempts: outcome.attempts,
        message: outcome.ok ? outcome.message : null,
        error: outcome.ok ? null : { kind: outcome.error.kind, message: outcome.error.message },
      },
      () => [],
    )
    return summary
  }
}
