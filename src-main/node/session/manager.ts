/**
 * Keeps one SessionRuntime per session that has been used since the app started, and turns their events into
 * contract events. Stream deltas are coalesced (about every 30 ms) so a fast stream does not flood the renderer.
 */
import type { ModelStreamEvent } from '../../engine/ports'
import type { WireRequest } from '../../engine/model/wire'
import type { Clock, Hasher, Logger } from '../../engine/ports'
import type { EventHub } from '../../rpc/events'
import type { ModelEndpoint } from '../model/endpoint'
import type { Store } from '../store'
import type { SessionPreferences } from '../settings/service'
import { SessionRuntime, type RuntimeEvent } from './runtime'
import type { Scheduler } from './keep-warm'
import type { CompactionEvent } from './compaction'
import { appendedSeqs } from '../../engine/conversation/window'

/** How long stream deltas are gathered before they are sent to the renderer as one event. */
export const STREAM_COALESCE_MS = 30

export interface ManagerDeps {
  readonly store: Store
  readonly endpoint: ModelEndpoint
  readonly clock: Clock
  readonly hasher: Hasher
  readonly log: Logger
  readonly events: EventHub
  readonly loupeHome: string
  readonly homeDir?: string
  /** Settings the session reads: the static prefix's cache TTL (each pass) and the mode a new session starts in. */
  readonly preferences?: () => SessionPreferences
  /** Timers for the sessions' cache keep-warm; Node's by default. */
  readonly scheduler?: Scheduler
}

/**
 * The main pass in flight in a session, as its events have told it: what `stream.delta` sent so far, merged. A window
 * that opens (or reloads) in the middle of a pass starts from it, then follows the events.
 */
export interface LivePassSnapshot {
  readonly passNumber: number
  readonly model: string
  /** When the pass started, and when its first stream event came (the clock's ms; null before it). */
  readonly startedAt: number
  firstDeltaAt: number | null
  /** The stream events sent so far, adjacent deltas of a block merged into one. */
  readonly events: ModelStreamEvent[]
}

export class SessionManager {
  private readonly runtimes = new Map<string, SessionRuntime>()
  private readonly buffers = new Map<string, { events: ModelStreamEvent[]; timer: NodeJS.Timeout | null }>()
  private readonly livePasses = new Map<string, LivePassSnapshot>()

  constructor(private readonly deps: ManagerDeps) {}

  /** The runtime of a session, created on first use; null when the session or its project does not exist. */
  get(sessionId: string): SessionRuntime | null {
    const existing = this.runtimes.get(sessionId)
    if (existing) return existing
    const session = this.deps.store.sessions.get(sessionId)
    const project = session ? this.deps.store.projects.get(session.projectId) : null
    if (!session || !project) return null
    const runtime = new SessionRuntime({ ...this.deps, emit: (event) => this.forward(sessionId, event) }, sessionId, project.root)
    this.runtimes.set(sessionId, runtime)
    return runtime
  }

  /**
   * What a session is doing now: a turn `running`, or `waiting` for the user to answer an approval; null when idle.
   * Asks only the runtimes already made (a session with none has never run since the start), so listing is cheap.
   */
  activity(sessionId: string): 'running' | 'waiting' | null {
    const runtime = this.runtimes.get(sessionId)
    if (!runtime?.running) return null
    return runtime.pendingApprovals().length > 0 ? 'waiting' : 'running'
  }

  /**
   * The main pass in flight in a session, with what was streamed of it so far (only what stream.delta has sent: what
   * is still gathered for the next event arrives as that event); null between passes.
   */
  livePass(sessionId: string): LivePassSnapshot | null {
    const live = this.livePasses.get(sessionId)
    return live ? { ...live, events: [...live.events] } : null
  }

  /** Counts a request's tokens with the model service the sessions use (count_tokens; free on the real API). */
  countTokens(request: Omit<WireRequest, 'max_tokens' | 'stream'>): Promise<number> {
    return this.deps.endpoint.client.countTokens(request)
  }

  /** Stops and forgets a session's runtime (before the session is deleted). */
  async drop(sessionId: string): Promise<void> {
    const runtime = this.runtimes.get(sessionId)
    this.runtimes.delete(sessionId)
    this.livePasses.delete(sessionId)
    await runtime?.dispose()
  }

  private flush(sessionId: string): void {
    const buffer = this.buffers.get(sessionId)
    if (!buffer || buffer.events.length === 0) return
    if (buffer.timer) clearTimeout(buffer.timer)
    const events = buffer.events
    this.buffers.set(sessionId, { events: [], timer: null })
    const merged = events.reduce(mergeDeltas, [] as ModelStreamEvent[])
    const live = this.livePasses.get(sessionId)
    if (live) for (const e of merged) mergeDeltas(live.events, e)
    this.deps.events.emit('stream.delta', { sessionId, events: merged })
  }

  private forward(sessionId: string, event: RuntimeEvent): void {
    const { events } = this.deps
    if (event.type === 'pass') {
      this.flush(sessionId)
      this.livePasses.delete(sessionId)
      events.emit('pass.completed', { sessionId, pass: event.pass as never })
      return
    }
    if (event.type === 'turn_ended') {
      this.flush(sessionId)
      this.livePasses.delete(sessionId)
      events.emit('turn.ended', { sessionId, runId: event.runId, reason: event.result.reason, ...('unrecorded' in event.result ? { unrecorded: event.result.unrecorded } : {}) })
      return
    }
    if (event.type === 'compaction') {
      this.forwardCompaction(sessionId, event.event)
      return
    }
    const e = event.event
    switch (e.type) {
      case 'stream': {
        const live = this.livePasses.get(sessionId)
        if (live && live.firstDeltaAt === null && e.event.type !== 'retrying') live.firstDeltaAt = this.deps.clock.now()
        const buffer = this.buffers.get(sessionId) ?? { events: [], timer: null }
        buffer.events.push(e.event)
        buffer.timer ??= setTimeout(() => this.flush(sessionId), STREAM_COALESCE_MS)
        this.buffers.set(sessionId, buffer)
        return
      }
      case 'pass_started':
        this.flush(sessionId)
        this.livePasses.set(sessionId, { passNumber: e.passNumber, model: e.model, startedAt: this.deps.clock.now(), firstDeltaAt: null, events: [] })
        events.emit('pass.started', { sessionId, passNumber: e.passNumber, model: e.model })
        return
      case 'pass_committed':
        return // pass.completed carries the stored summary
      case 'entries_appended': {
        this.flush(sessionId)
        // A checkpoint names the range it summarised, which may start before every entry a window has read.
        const seqs = appendedSeqs(() => this.runtimes.get(sessionId)?.entries() ?? [], e.entries)
        events.emit('entries.appended', { sessionId, entries: e.entries as never, ...(Object.keys(seqs).length > 0 ? { seqs } : {}) })
        return
      }
      case 'approval_requested':
        this.flush(sessionId)
        events.emit('approval.requested', { sessionId, toolUseId: e.toolUseId, request: e.request as never })
        return
      case 'tool_started':
        events.emit('tool.started', { sessionId, toolUseId: e.toolUseId, name: e.name, input: e.input })
        return
      case 'tool_finished':
        events.emit('tool.finished', { sessionId, toolUseId: e.toolUseId, name: e.name, isError: e.isError })
        return
    }
  }

  private forwardCompaction(sessionId: string, e: CompactionEvent): void {
    const { events } = this.deps
    switch (e.type) {
      case 'started':
        events.emit('compaction.started', { sessionId, compactionId: e.compactionId, trigger: e.trigger, focus: e.focus, dryRun: e.dryRun })
        return
      case 'progressed':
        events.emit('compaction.progressed', { sessionId, compactionId: e.compactionId, ...e.progress })
        return
      case 'drafted':
        events.emit('compaction.drafted', { sessionId, compactionId: e.compactionId, draft: e.draft as never })
        return
      case 'applied':
        this.flush(sessionId)
        events.emit('compaction.applied', { sessionId, compactionId: e.compactionId, checkpoint: e.checkpoint as never, pins: [...e.pins] })
        return
      case 'failed':
        events.emit('compaction.failed', { sessionId, compactionId: e.compactionId, reason: e.reason, message: e.message })
        return
    }
  }

  async close(): Promise<void> {
    for (const b of this.buffers.values()) if (b.timer) clearTimeout(b.timer)
    await Promise.all([...this.runtimes.values()].map((r) => r.dispose()))
    this.runtimes.clear()
  }
}


/** Adjacent text (or thinking, or tool input) deltas of the same block become one delta. */
function mergeDeltas(out: ModelStreamEvent[], e: ModelStreamEvent): ModelStreamEvent[] {
  const last = out.at(-1)
  if (last && last.type === e.type && 'index' in last && 'index' in e && last.index === e.index) {
    if (e.type === 'text_delta' && last.type === 'text_delta') return replaceLast(out, { ...last, text: last.text + e.text })
    if (e.type === 'thinking_delta' && last.type === 'thinking_delta') return replaceLast(out, { ...last, thinking: last.thinking + e.thinking })
    if (e.type === 'tool_input_delta' && last.type === 'tool_input_delta') return replaceLast(out, { ...last, partialJson: last.partialJson + e.partialJson })
  }
  out.push(e)
  return out
}

function replaceLast(out: ModelStreamEvent[], e: ModelStreamEvent): ModelStreamEvent[] {
  out[out.length - 1] = e
  return out
}
