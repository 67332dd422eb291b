/**
 * One open session: its frozen context, its planner, its log, its pending approvals and the turn in flight. The
 * engine's loop does the work (src-main/engine/loop/turn.ts); this class wires the loop's ports to the store, the
 * tools, the model and the contract's events.
 */
import { homedir } from 'node:os'
import type { Entry } from '../../engine/conversation/entries'
import { HistoryCache } from '../../engine/conversation/history'
import type { Approvals, ContextNotes, LoopEvent, PassPlanner } from '../../engine/loop/ports'
import { runTurn, type TurnInput, type TurnResult } from '../../engine/loop/turn'
import { buildPromptPlan, renderRequest } from '../../engine/prompt'
import type { ContextNote } from '../../engine/prompt/notes'
import { freezeSession } from '../../engine/prompt/snapshot'
import type { ApprovalAnswer, ApprovalRequest, PermissionMode } from '../../engine/tools/permissions'
import { WIRE_TOOLS } from '../../engine/tools/specs'
import type { Clock, Hasher, Logger } from '../../engine/ports'
import type { ModelEndpoint } from '../model/endpoint'
import { findModel } from '../model/models'
import type { Store } from '../store'
import { createToolExecutor, type NodeToolExecutor } from '../tools'
import { gatherProjectContext, createNestedContextReader, type NestedContextReader } from '../instructions'
import { StoreSessionLog } from './store-log'
import { parseSessionState, type SessionState } from './state'
import type { PassSummary } from '../store/passes'

export interface RuntimeDeps {
  readonly store: Store
  readonly endpoint: ModelEndpoint
  readonly clock: Clock
  readonly hasher: Hasher
  readonly log: Logger
  readonly loupeHome: string
  readonly homeDir?: string
  /** Contract events for this session. */
  readonly emit: (event: RuntimeEvent) => void
}

export type RuntimeEvent =
  | { readonly type: 'loop'; readonly event: LoopEvent }
  | { readonly type: 'pass'; readonly pass: PassSummary }
  | { readonly type: 'turn_ended'; readonly runId: string; readonly result: TurnResult }

/** Tools offered to the model. `compact` joins when compaction is wired to the loop. */
const OFFERED_TOOLS = WIRE_TOOLS.filter((t) => t.name !== 'compact')
const DEFAULT_MAX_TOKENS = 8192

interface PendingApproval {
  readonly request: ApprovalRequest
  readonly resolve: (answer: ApprovalAnswer) => void
}

export class SessionRuntime {
  private state: SessionState
  private readonly history = new HistoryCache()
  private readonly sessionLog: StoreSessionLog
  private readonly tools: NodeToolExecutor
  private readonly pending = new Map<string, PendingApproval>()
  private nested: NestedContextReader | null = null
  private run: { id: string; controller: AbortController; done: Promise<TurnResult> } | null = null
  private runCounter = 0

  constructor(
    private readonly deps: RuntimeDeps,
    readonly sessionId: string,
    readonly root: string,
  ) {
    this.state = parseSessionState(deps.store.sessions.state(sessionId), deps.endpoint.model)
    this.sessionLog = new StoreSessionLog(deps.store, sessionId, deps.clock, (pass) => deps.emit({ type: 'pass', pass }))
    this.tools = createToolExecutor({ root, loupeHome: deps.loupeHome })
  }

  get running(): boolean {
    return this.run !== null
  }
  get mode(): PermissionMode {
    return this.state.mode
  }
  get model(): string {
    return this.state.model
  }
  pendingApprovals(): Array<{ toolUseId: string; request: ApprovalRequest }> {
    return [...this.pending].map(([toolUseId, p]) => ({ toolUseId, request: p.request }))
  }
  entries(): ReadonlyArray<Entry> {
    return this.sessionLog.entries()
  }

  private save(next: Partial<SessionState>): void {
    this.state = { ...this.state, ...next }
    this.deps.store.sessions.saveState(this.sessionId, JSON.stringify(this.state))
  }

  setMode(mode: PermissionMode): void {
    if (mode === this.state.mode) return
    this.save({ mode })
    const entries = this.sessionLog.append([{ kind: 'mode_switched', mode }])
    this.deps.emit({ type: 'loop', event: { type: 'entries_appended', entries } })
  }

  /** Freezes the session block and context on the first run (and reads the project for after-breakpoint notes). */
  private async prepare(): Promise<void> {
    const homeDir = this.deps.homeDir ?? homedir()
    if (this.state.frozen && this.nested) return
    const gathered = await gatherProjectContext(this.root, { homeDir, loupeHome: this.deps.loupeHome, now: this.deps.clock.now() })
    if (!this.state.frozen) {
      const info = findModel(this.state.model)
      const frozen = freezeSession(gathered, { contextWindowTokens: info?.contextWindow ?? 200_000, skills: true })
      this.save({ frozen })
    }
    this.nested = createNestedContextReader(gathered, this.state.frozen!.session.instructions, { homeDir, delivered: this.state.deliveredNotes })
  }

  private planner(): PassPlanner {
    return {
      plan: (entries) => {
        const frozen = this.state.frozen!
        const history = this.history.toHistory(entries)
        const previous = this.state.previousHistoryLength
        const info = findModel(this.state.model)
        const plan = buildPromptPlan({
          model: this.state.model,
          maxTokens: Math.min(DEFAULT_MAX_TOKENS, info?.maxOutputTokens ?? DEFAULT_MAX_TOKENS),
          settings: { features: { sandbox: false, hooks: false, todo: true, skills: true }, staticCacheTtl1h: false },
          tools: OFFERED_TOOLS,
          project: frozen.project,
          session: frozen.session,
          context: frozen.context,
          history,
          // The previous pass's last message keeps its breakpoint, so a hit never depends on the 20-block lookback.
          previousTailIndex: previous > 0 && previous < history.length ? previous - 1 : null,
          hasher: this.deps.hasher,
        })
        this.save({ previousHistoryLength: history.length })
        return { request: renderRequest(plan), plan }
      },
    }
  }

  private approvals(): Approvals {
    return {
      ask: (toolUseId, request, signal) =>
        new Promise<ApprovalAnswer>((resolve) => {
          const onAbort = () => {
            this.pending.delete(toolUseId)
            resolve({ kind: 'deny', reason: 'The run was stopped.' })
          }
          if (signal.aborted) return onAbort()
          signal.addEventListener('abort', onAbort, { once: true })
          this.pending.set(toolUseId, {
            request,
            resolve: (answer) => {
              signal.removeEventListener('abort', onAbort)
              this.pending.delete(toolUseId)
              resolve(answer)
            },
          })
        }),
    }
  }

  private contextNotes(): ContextNotes {
    return {
      afterTool: async (call, effects) => {
        const touched = effects.flatMap((e) => (e.type === 'file_read' || e.type === 'file_written' ? [e.path] : []))
        if (!this.nested || touched.length === 0) return []
        const notes: ContextNote[] = []
        for (const path of touched) notes.push(...(await this.nested.forFile(path)).notes)
        if (notes.length > 0) this.save({ deliveredNotes: this.nested.delivered() })
        void call
        return notes
      },
    }
  }

  answerApproval(toolUseId: string, answer: ApprovalAnswer): boolean {
    const pending = this.pending.get(toolUseId)
    if (!pending) return false
    pending.resolve(answer)
    return true
  }

  /** Starts a turn in the background. Throws if one is running (the caller answers `busy`). */
  start(input: TurnInput): string {
    if (this.run) throw new Error('busy')
    const id = `run_${this.deps.clock.now().toString(36)}_${++this.runCounter}`
    const controller = new AbortController()
    const done = (async (): Promise<TurnResult> => {
      try {
        await this.prepare()
        return await runTurn(
          {
            model: this.deps.endpoint.client,
            tools: this.tools,
            log: this.sessionLog,
            planner: this.planner(),
            approvals: this.approvals(),
            controls: {
              root: this.root,
              mode: () => this.state.mode,
              rules: () => this.state.rules,
              setRules: (rules) => this.save({ rules }),
              toolState: () => this.state.toolState,
              setToolState: (toolState) => this.save({ toolState }),
            },
            clock: this.deps.clock,
            emit: (event) => this.deps.emit({ type: 'loop', event }),
            notes: this.contextNotes(),
          },
          input,
          controller.signal,
        )
      } catch (err) {
        // A bug in the loop: the session stays valid (entries are only ever appended), and the user sees why.
        this.deps.log.error('turn failed', { sessionId: this.sessionId, error: err instanceof Error ? err.stack : String(err) })
        const entries = this.sessionLog.append([
          { kind: 'turn_failed', message: `Loupe failed while running the turn: ${err instanceof Error ? err.message : String(err)}`, errorKind: 'internal', retryable: true },
          { kind: 'turn_ended', reason: 'error' },
        ])
        this.deps.emit({ type: 'loop', event: { type: 'entries_appended', entries } })
        return { reason: 'error', passes: 0 }
      }
    })()
    this.run = { id, controller, done }
    void done.then((result) => {
      this.run = null
      this.deps.emit({ type: 'turn_ended', runId: id, result })
    })
    return id
  }

  cancel(): boolean {
    if (!this.run) return false
    this.run.controller.abort()
    return true
  }

  /** Resolves when the turn in flight (if any) has ended. */
  async idle(): Promise<void> {
    await this.run?.done
  }

  async dispose(): Promise<void> {
    this.cancel()
    await this.idle()
    await this.tools.dispose()
  }
}
