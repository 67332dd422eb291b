/**
 * The loop's SessionLog over the SQLite store: entries appended in one transaction; a pass committed with its
 * entries in one transaction, its request body as captured on the wire (split into content-addressed segments).
 */
import type { Entry, EntryBody, PassId } from '../../engine/conversation/entries'
import type { PassCommit, SessionLog } from '../../engine/loop/ports'
import type { PromptPlan } from '../../engine/prompt/plan'
import { attributePass } from '../cache'
import { passBilling } from '../model/billed'
import type { Store } from '../store'
import type { PassSummary, SegmentMeta } from '../store/passes'
import type { Clock } from '../../engine/ports'

/** Provenance and breakpoint for each segment path of a request rendered from `plan`. */
export function segmentMetaFromPlan(plan: PromptPlan): (path: string) => SegmentMeta {
  return (path) => {
    const m = /^(tools|system|messages)\[(\d+)\]$/.exec(path)
    if (!m) return { provenance: { kind: 'body' }, breakpoint: null }
    const index = Number(m[2])
    if (m[1] === 'tools') {
      const t = plan.tools[index]
      return { provenance: t?.provenance ?? null, breakpoint: t?.breakpoint ?? null }
    }
    if (m[1] === 'system') {
      const b = plan.system[index]
      return { provenance: b ? { ...b.provenance, stability: b.stability, tokens: b.tokens, spans: b.spans } : null, breakpoint: b?.breakpoint ?? null }
    }
    const msg = plan.messages[index]
    const breakpoint = msg?.blocks.find((b) => b.breakpoint)?.breakpoint ?? null
    return { provenance: msg ? { kind: 'history', entryIds: msg.provenance.entryIds, historyKind: msg.provenance.kind, tokens: msg.tokens, blocks: msg.blocks.map((b) => b.provenance) } : null, breakpoint }
  }
}

/** The small part of a plan kept with each pass: enough for the inspector without re-running the builder. */
export function planSummary(plan: PromptPlan): unknown {
  return {
    breakpoints: plan.breakpoints,
    fingerprints: plan.fingerprints,
    tokens: plan.tokens,
    sessionOrigin: plan.sessionOrigin,
    messageCount: plan.messages.length,
  }
}

/**
 * Entries are append-only (an entry never changes once written), so the log keeps the session's entries read so far
 * and reads only the rows after them: a pass asks for the entries several times (history, plan, context size, pins),
 * and `session.get` once per window, and a long session's whole read and parse is hundreds of milliseconds of the
 * main process each time (bench: `session.entries_read_ms`). Whoever appends (this log, an import's notice, a
 * continued transcript), the next read sees it. Each answer is a new array when something was added, never one that
 * grows under a caller holding it.
 */
export class StoreSessionLog implements SessionLog {
  private known: ReadonlyArray<Entry> = []

  constructor(
    private readonly store: Store,
    private readonly sessionId: string,
    private readonly clock: Clock,
    private readonly onPass?: (pass: PassSummary) => void,
    private readonly onAttributionError?: (error: unknown) => void,
  ) {}

  entries(): ReadonlyArray<Entry> {
    const newest = this.store.entries.newestId(this.sessionId)
    const known = this.known.at(-1)
    if (newest && known && newest.seq === known.seq && newest.id === known.id) return this.known
    if (newest && known && newest.seq > known.seq) {
      // Read from the newest known entry on: it must still be there, as known. It is not when a transaction that
      // appended it was rolled back after it was read; then the whole session is read again, as it is at the start.
      const from = this.store.entries.listFrom(this.sessionId, known.seq)
      if (from[0]?.id === known.id) return (this.known = [...this.known, ...from.slice(1)])
    }
    return (this.known = newest ? this.store.entries.list(this.sessionId) : [])
  }

  append(bodies: ReadonlyArray<EntryBody>): ReadonlyArray<Entry> {
    return this.store.transaction(() => this.store.entries.append(this.sessionId, bodies, this.clock.now()))
  }

  commitPass(pass: PassCommit, makeEntries: (passId: PassId) => ReadonlyArray<EntryBody>): { passId: PassId; entries: ReadonlyArray<Entry>; costUsd: number | null; summary: PassSummary } {
    // The body the server received: the last attempt's capture (all attempts send the same bytes).
    const requestBody = pass.attempts.at(-1)?.requestBody
    // Every attempt the service answered was billed: a stream that broke after its 200 and was sent again too.
    const billing = passBilling(pass.model, pass.attempts, pass.message?.usage ?? null)
    const { summary, entries } = this.store.transaction(() => {
      const summary = this.store.passes.insert({
        sessionId: this.sessionId,
        kind: pass.kind,
        model: pass.model,
        status: pass.status,
        queuedAt: pass.queuedAt,
        firstByteAt: pass.firstByteAt,
        doneAt: pass.doneAt,
        requestBody: requestBody ?? '{}',
        segmentMeta: segmentMetaFromPlan(pass.plan),
        attempts: pass.attempts.map((a, i) => ({
          startedAt: a.startedAt,
          firstByteAt: a.firstByteAt,
          endedAt: a.endedAt,
          status: a.status,
          requestId: a.requestId,
          error: a.error,
          responseHeaders: a.responseHeaders,
          responseBody: a.responseBody,
          ...(billing.attempts[i] ? { usage: billing.attempts[i].usage, costUsd: billing.attempts[i].costUsd } : {}),
        })),
        messageId: pass.message?.id ?? null,
        stopReason: pass.message?.stop_reason ?? null,
        usage: pass.message?.usage ?? null,
        costUsd: billing.costUsd,
        error: pass.error,
        plan: planSummary(pass.plan),
      })
      const entries = this.store.entries.append(this.sessionId, makeEntries(summary.id as PassId), this.clock.now())
      return { summary, entries }
    })
    // Attribution runs after the commit: the pass is durable first, and a failure here only leaves it unattributed.
    const attribution = attributePass(this.store, summary, { plan: pass.plan, responseBody: pass.attempts.at(-1)?.responseBody, entries: () => this.entries(), onError: (err) => this.onAttributionError?.(err) })
    const stored = attribution ? { ...summary, attribution } : summary
    this.onPass?.(stored)
    return { passId: summary.id as PassId, entries, costUsd: summary.costUsd, summary: stored }
  }
}
