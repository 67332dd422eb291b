/**
 * The cache entries of a session kept up to date pass by pass, instead of replayed from the first pass each time:
 * events are applied as time moves forward, and everything is replayed only when a pass arrives whose events lie
 * before what was already applied (a pass that started earlier but was recorded later).
 */
import { keepNearest, type ScaledCount } from './scale'
import { CacheState, compareEvents, eventsOf, type CacheEvent, type PassCacheFacts } from './state'

export class CacheTimeline {
  private readonly all: PassCacheFacts[] = []
  private readonly counts = new Map<string, number>()
  private readonly scaled = new Map<string, ScaledCount>()
  private state = new CacheState()
  private time = Number.NEGATIVE_INFINITY
  /** Events not applied yet, in order. */
  private pending: CacheEvent[] = []
  private stale = false

  get facts(): ReadonlyArray<PassCacheFacts> {
    return this.all
  }

  /** Real token counts known by prefix key, from every pass added. */
  get anchors(): ReadonlyMap<string, number> {
    return this.counts
  }

  /** For each breakpoint key of the passes added, the count scaled nearest a real one (TokenScale's `estimates`). */
  get estimates(): ReadonlyMap<string, ScaledCount> {
    return this.scaled
  }

  add(facts: PassCacheFacts): void {
    this.all.push(facts)
    for (const a of facts.anchors) this.counts.set(a.key, a.tokens)
    addEstimates(this.scaled, facts)
    const events = eventsOf(facts)
    if (events.some((e) => e.at < this.time)) {
      this.stale = true
      return
    }
    for (const e of events) {
      let i = this.pending.length
      while (i > 0 && compareEvents(this.pending[i - 1]!, e) > 0) i--
      this.pending.splice(i, 0, e)
    }
  }

  /** The entries as they stand at `now`. The state returned is live: it moves on with the next call. */
  stateAt(now: number): CacheState {
    if (this.stale || now < this.time) {
      this.state = new CacheState()
      this.pending = this.all.flatMap(eventsOf).sort(compareEvents)
      this.time = Number.NEGATIVE_INFINITY
      this.stale = false
    }
    let applied = 0
    while (applied < this.pending.length && this.pending[applied]!.at <= now) this.state.apply(this.pending[applied++]!)
    if (applied > 0) this.pending = this.pending.slice(applied)
    this.time = now
    this.state.setPending(this.pending, now)
    return this.state
  }
}

/** Adds a pass's scaled counts at its breakpoints to `into`, each kept where it is the one made nearest a real count. */
export function addEstimates(into: Map<string, ScaledCount>, facts: PassCacheFacts): void {
  for (const b of facts.breakpoints) if (b.span !== undefined) keepNearest(into, b.key, { tokens: b.tokens, span: b.span })
}
