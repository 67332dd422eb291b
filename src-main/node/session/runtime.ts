/**
 * One open session: its frozen context, its planner, its log, its pending approvals, its compaction and the run in
 * flight (a turn, or a compaction the user asked for). The engine's loop does the work
 * (src-main/engine/loop/turn.ts); this class wires the loop's ports to the store, the tools, the model and the
 * contract's events.
 */
import { realpath } from 'node:fs/promises'
import { dirname } from 'node:path'
import { homedir } from 'node:os'
import type { Entry } from '../../engine/conversation/entries'
import { HistoryCache, lastCheckpoint } from '../../engine/conversation/history'
import { planTakeBack, TAKE_BACK_SOURCE, withCarriedNotes, type TakeBackPlan } from '../../engine/conversation/take-back'
import { EXTENSION_MODEL_CALLS_PER_TURN, trimOldTools, type UptoTarget } from '../../engine/compaction'
import type { Pin } from '../../engine/compaction/pins'
import { foldPins } from '../../engine/compaction/pins'
import type { Approvals, ContextNotes, LoopEvent, PassPlanner } from '../../engine/loop/ports'
import { runTurn, type TurnInput, type TurnResult } from '../../engine/loop/turn'
import type { HistoryMessage } from '../../engine/prompt/input'
import { buildPromptPlan, renderRequest, type ExtraSection, type PromptPlan } from '../../engine/prompt'
import type { ContextNote } from '../../engine/prompt/notes'
import { estimateTokens } from '../../engine/prompt/estimate'
import { fileEditTimes, freezeSession, freezeSessionSection, sessionChangeWords, sessionFileChanges, type SessionFileChange, type SessionSection } from '../../engine/prompt/snapshot'
import { diffSignatures, fileSignatures, type FileSignatures } from '../../engine/prompt/changes'
import type { GatheredContext } from '../../engine/prompt/gathered'
import type { ApprovalAnswer, ApprovalRequest, PermissionMode, PermissionRule } from '../../engine/tools/permissions'
import { forgetReadsAtCompaction } from '../../engine/tools/session-state'
import { LISTS_SKILLS, OFFERED_TOOLS, promptSettings } from './prompt-settings'
import type { Clock, Hasher, Logger, ModelClient } from '../../engine/ports'
import type { ModelEndpoint } from '../model/endpoint'
import { findModel, thinkingFor } from '../model/models'
import type { WireRequest } from '../../engine/model/wire'
import type { Store } from '../store'
import type { SessionPreferences } from '../settings/service'
import { createToolExecutor, type NodeToolExecutor } from '../tools'
import { gatherProjectContext, createNestedContextReader, type NestedContextReader } from '../instructions'
import { StoreSessionLog } from './store-log'
import { countingPrefixes } from '../cache/prefix-counts'
import { nextLiveCompaction, type LiveCompactionSnapshot } from './live-compaction'
import { parseSessionState, type SessionState } from './state'
import type { PassSummary } from '../store/passes'
import { nodeHasher } from '../hasher'
import { DEFAULT_PROJECT_CONFIG, loadProjectConfig, type ProjectConfig } from '../compaction/config'
import { loadExtensions, type LoadedExtensions } from '../compaction/extensions'
import { SessionCompaction, type CompactionEvent, type CompactionHost, type CompactOutcome, type DraftView } from './compaction'
import { createCompactionHook } from './compaction-hook'
import { checkpointContext, collectSections, contextTokensNow, perPassEdits, type CheckpointContext } from './context-extras'
import { addPin, removePin, type PinResult } from './pins'
import { keepWarmHistory, keepWarmPlan } from '../../engine/cache'
import { cacheModels, reachedService } from '../cache'
import { KeepWarm, nodeScheduler, type Scheduler } from './keep-warm'

export interface RuntimeDeps {
  readonly store: Store
  readonly endpoint: ModelEndpoint
  readonly clock: Clock
  readonly hasher: Hasher
  readonly log: Logger
  readonly loupeHome: string
  readonly homeDir?: string
  /** Settings the session reads: the static prefix's cache TTL (each pass) and the mode a new session starts in. */
  readonly preferences?: () => SessionPreferences
  /** Timers for the cache keep-warm (node/session/keep-warm.ts); Node's by default. */
  readonly scheduler?: Scheduler
  /** Contract events for this session. */
  readonly emit: (event: RuntimeEvent) => void
}

/** How a run ended: a turn's reason, or what a compaction asked for in the chat did. */
export type RunResult =
  | TurnResult
  | { readonly reason: 'compacted' | 'nothing_to_compact' | 'compaction_failed' | 'cancelled'; readonly passes: number }
  /** The run failed and its failure could not be written to the session either (the store refused): said only here. */
  | { readonly reason: 'error'; readonly passes: number; readonly unrecorded: string }

export type RuntimeEvent =
  | { readonly type: 'loop'; readonly event: LoopEvent }
  | { readonly type: 'pass'; readonly pass: PassSummary }
  | { readonly type: 'turn_ended'; readonly runId: string; readonly result: RunResult }
  | { readonly type: 'compaction'; readonly event: CompactionEvent }


const DEFAULT_MAX_TOKENS = 8192
/** With thinking on, the answer and the thinking before it share max_tokens (§2.5): room for both. */
const THINKING_MAX_TOKENS = 32_000
/** Entries that change what the next pass sends: a run that appends none leaves the conversation as it was. */
const CONVERSATION_KINDS: ReadonlySet<string> = new Set(['user_message', 'assistant_message', 'tool_result', 'checkpoint', 'context_edit'])

/** A chat message that starts with this runs a compaction instead of a turn; the rest is the focus. */
const COMPACT_COMMAND = /^\/compact(?:\s+([\s\S]*))?$/

interface PendingApproval {
  readonly request: ApprovalRequest
  readonly resolve: (answer: ApprovalAnswer) => void
}

export class SessionRuntime {
  private state: SessionState
  /** The history for the service that answers now: answers the other one wrote go without their thinking. */
  private readonly history = new HistoryCache(() => this.deps.endpoint.client.endpoint.kind)
  private readonly sessionLog: StoreSessionLog
  /** The store's folder (sessions, API key), or null for an in-memory store: no tool may write it, no command name it unasked. */
  private readonly dataDir: string | null
  private readonly tools: NodeToolExecutor
  private readonly pending = new Map<string, PendingApproval>()
  private readonly toolsRunning = new Set<string>()
  private readonly compaction: SessionCompaction
  private nested: NestedContextReader | null = null
  private run: { id: string; controller: AbortController; done: Promise<RunResult> } | null = null
  private runCounter = 0
  private config: ProjectConfig = DEFAULT_PROJECT_CONFIG
  private extensions: { key: string; loaded: LoadedExtensions } | null = null
  private lastMainPass: PassSummary | null
  /**
   * The instruction and memory files as last frozen or noted, to tell what changed on disk since. Kept in the
   * session's state, so a runtime made after a restart compares with what the model last heard, not with the disk.
   */
  private get baseline(): FileSignatures | null {
    return this.state.fileBaseline
  }

  private setBaseline(gathered: GatheredContext): void {
    const next = fileSignatures(gathered, nodeHasher.sha256Hex)
    if (JSON.stringify(next) !== JSON.stringify(this.state.fileBaseline)) this.save({ fileBaseline: next })
  }
  /** The compaction in flight, as events have told it so far (live-compaction.ts). */
  private liveCompaction: LiveCompactionSnapshot | null = null
  /** Context sections of extensions for the next pass, rendered in the compaction hook. */
  private sections: ReadonlyArray<ExtraSection> = []
  /** Extensions whose failure was already shown (once per session is enough). */
  private readonly failedSections = new Set<string>()
  /** One cache pre-warm per idle gap, armed by each pass of the conversation (keep-warm.ts). */
  private readonly keepWarm: KeepWarm
  /** How many history messages the pass being sent carries; kept as `previousHistoryLength` once it reached the service. */
  private plannedHistoryLength: number | null = null

  constructor(
    private readonly deps: RuntimeDeps,
    readonly sessionId: string,
    readonly root: string,
  ) {
    const stored = deps.store.sessions.state(sessionId)
    this.state = parseSessionState(stored, deps.endpoint.model)
    // A new session starts in the mode chosen in Settings.
    const defaultMode = deps.preferences?.().defaultMode
    if (stored === '{}' && defaultMode && defaultMode !== this.state.mode) this.state = { ...this.state, mode: defaultMode }
    this.sessionLog = new StoreSessionLog(deps.store, sessionId, deps.clock, (pass) => {
      // The next pass keeps a breakpoint where this one's conversation ended, if this one reached the service and so
      // wrote there; after a pass that got no response, its retry keeps the one before it.
      if (pass.kind === 'main' && this.plannedHistoryLength !== null && reachedService(pass)) this.save({ previousHistoryLength: this.plannedHistoryLength })
      if (pass.kind === 'main') this.plannedHistoryLength = null
      if (pass.kind === 'main' && pass.status === 'done') {
        this.lastMainPass = pass
        this.keepWarm.passCommitted(pass)
      } else if (pass.kind === 'main' && !reachedService(pass) && this.lastMainPass) {
        // A pass that got no response cancelled the gap's pre-warm as it went out, yet touched no entry: the gap
        // since the last answered pass goes on, so its pre-warm is planned again (sent if it is still in time).
        this.keepWarm.passCommitted(this.lastMainPass)
      }
      deps.emit({ type: 'pass', pass })
    }, (err) => deps.log.warn('cache attribution failed', { sessionId, error: err instanceof Error ? err.stack : String(err) }))
    // The store's folder is the data folder; an in-memory store has none.
    const storeFile = deps.store.db.name
    this.dataDir = storeFile && storeFile !== ':memory:' ? dirname(storeFile) : null
    this.tools = createToolExecutor({ root, loupeHome: deps.loupeHome, ...(this.dataDir !== null ? { dataDir: this.dataDir } : {}) })
    this.lastMainPass = deps.store.passes.list(sessionId).filter((p) => p.kind === 'main' && p.status === 'done').at(-1) ?? null
    this.compaction = new SessionCompaction(this.host())
    this.keepWarm = new KeepWarm({
      clock: deps.clock,
      scheduler: deps.scheduler ?? nodeScheduler,
      client: () => deps.endpoint.client,
      log: this.sessionLog,
      models: cacheModels,
      enabled: () => deps.preferences?.().keepCacheWarm ?? true,
      plan: () => this.keepWarmPlan(),
      onError: (err) => deps.log.warn('cache keep-warm failed', { sessionId, error: err instanceof Error ? err.stack : String(err) }),
    })
  }

  /**
   * The pre-warm for the session as it stands: its history through the last assistant message with a 1h marker at
   * that message's tail, and a placeholder after it (engine/cache/keep-warm.ts). Null before the first pass.
   */
  private keepWarmPlan(): PromptPlan | null {
    if (!this.state.frozen) return null
    const shaped = keepWarmHistory(this.history.toHistory(this.sessionLog.entries()))
    if (!shaped) return null
    // No context sections: they go after the markers, and the pre-warm's prefix must be the next pass's bytes.
    return keepWarmPlan(this.planFor(shaped.history, shaped.tailIndex, 1, { sections: false }))
  }

  get running(): boolean {
    return this.run !== null
  }

  /**
   * Why a message cannot be sent, or null: one that by itself fills the model's context window. Sent, it would be
   * refused ("prompt is too long") on this pass and every later one, since compaction keeps the newest message whole;
   * refused here, it never enters the conversation and the user keeps the text. The estimate (characters / 4) is
   * low for most text, so a message this check lets through may still be too long; none it refuses would fit.
   */
  tooLargeToSend(text: string): string | null {
    // The model's own window, not the compaction settings' (a smaller budget chosen for compacting early).
    const window = findModel(this.state.model)?.contextWindow
    if (window === undefined) return null
    // The tools and the system prompt come first in every request: a couple of thousand tokens at the least.
    const prefix = 2_000
    const tokens = estimateTokens(text)
    if (tokens + prefix <= window) return null
    const chars = text.length.toLocaleString('en-US')
    return `This message is about ${tokens.toLocaleString('en-US')} tokens (${chars} characters): with the tools and instructions it cannot fit in ${this.state.model}'s ${window.toLocaleString('en-US')}-token context window. Shorten it, or save the text to a file in the project and ask the agent to read the parts it needs.`
  }

  get mode(): PermissionMode {
    return this.state.mode
  }
  get model(): string {
    return this.state.model
  }
  /** The tool calls of the running turn that started and have not finished, for a window that opens meanwhile. */
  runningTools(): string[] {
    return [...this.toolsRunning]
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

  private appendAndEmit(entries: ReadonlyArray<Entry>): void {
    if (entries.length > 0) this.deps.emit({ type: 'loop', event: { type: 'entries_appended', entries } })
  }

  /** The "always allow" rules granted in this session (from approvals answered "always"). */
  allowRules(): ReadonlyArray<PermissionRule> {
    return this.state.rules.allow
  }

  /** Removes an "always allow" rule; false when the session holds no such rule. Said in the conversation. */
  revokeRule(rule: { readonly tool: string; readonly pattern: string }): boolean {
    const allow = this.state.rules.allow.filter((r) => !(r.tool === rule.tool && r.pattern === rule.pattern))
    if (allow.length === this.state.rules.allow.length) return false
    this.save({ rules: { ...this.state.rules, allow } })
    this.appendAndEmit(this.sessionLog.append([{ kind: 'notice', source: 'permissions', level: 'info', text: `No longer always allowed: ${rule.tool} ${rule.pattern}. Such calls are asked about again.` }]))
    return true
  }

  setMode(mode: PermissionMode): void {
    if (mode === this.state.mode) return
    this.save({ mode })
    this.appendAndEmit(this.sessionLog.append([{ kind: 'mode_switched', mode }]))
  }

  /**
   * Switches the model the session's next passes use (decision 0021). The cache is per model, so the next pass
   * writes its whole prompt afresh (cache.priceEdit prices it first); the planned pre-warm is dropped, since it
   * would warm the old model's entries, which nothing reads now. Recorded as an entry, like a mode switch.
   */
  setModel(model: string): void {
    if (model === this.state.model) return
    if (this.running) throw new Error('A turn is running in this session')
    this.keepWarm.cancel()
    this.save({ model })
    this.appendAndEmit(this.sessionLog.append([{ kind: 'model_switched', model }]))
  }

  /**
   * Takes a message the user sent back (decision 0024): it and everything after it the model sees (its answers, and
   * any later messages with theirs) leave what the model sees (a context edit; nothing is deleted), the notes they carried go with the next message, and the planned pre-warm is
   * dropped (it would warm a tail no pass sends now). Returns the message's text for the message box.
   */
  takeBack(entryId: string): { readonly ok: true; readonly text: string; readonly dropped: number; readonly messages: number } | Extract<TakeBackPlan, { ok: false }> {
    if (this.running) throw new Error('A turn is running in this session')
    // A session continued from Claude Code's conversation: the messages it carried over are not the user's to take back.
    const carriedOver = this.deps.store.sessions.get(this.sessionId)?.continued?.inherited ?? 0
    const plan = planTakeBack(this.sessionLog.entries(), entryId, carriedOver)
    if (!plan.ok) return plan
    this.keepWarm.cancel()
    const appended = this.sessionLog.append([{ kind: 'context_edit', source: TAKE_BACK_SOURCE, edits: plan.edits }])
    if (plan.notes.length > 0) this.save({ carriedNotes: [...this.state.carriedNotes, ...plan.notes] })
    // A read taken back is no longer in what the model sees: a later read of the same lines must show them again,
    // not answer "unchanged since your last read" about text the model cannot find. The fingerprints stay (what an
    // edit checks against is the file as the tools last read it, taken back or not).
    if (readsAmong(this.sessionLog.entries(), plan.toolUseIds)) this.save({ toolState: forgetReadsAtCompaction(this.state.toolState) })
    // A compaction the model asked for in the turn taken back is taken back with it.
    const pending = this.state.compaction.pending
    if (pending && plan.toolUseIds.includes(pending.toolUseId)) this.save({ compaction: { ...this.state.compaction, pending: null } })
    this.appendAndEmit(appended)
    return { ok: true, text: plan.text, dropped: plan.edits.length, messages: plan.messages }
  }

  private homeDir(): string {
    return this.deps.homeDir ?? homedir()
  }

  private gather() {
    return gatherProjectContext(this.root, { homeDir: this.homeDir(), loupeHome: this.deps.loupeHome, now: this.deps.clock.now() })
  }

  private windowTokens(): number {
    return this.config.settings.windowTokens ?? findModel(this.state.model)?.contextWindow ?? 200_000
  }

  private maxOutputTokens(): number {
    const wanted = this.thinking()?.type === 'adaptive' ? THINKING_MAX_TOKENS : DEFAULT_MAX_TOKENS
    return Math.min(wanted, findModel(this.state.model)?.maxOutputTokens ?? wanted)
  }

  /** The `thinking` this session's passes send now: the setting, on the session's model. */
  private thinking(): WireRequest['thinking'] | null {
    return thinkingFor(this.state.model, this.deps.preferences?.().thinking ?? true)
  }

  /**
   * Freezes the session block and context on the first run, reads the project's compaction config and extensions,
   * and the project for after-breakpoint notes.
   */
  private async prepare(): Promise<void> {
    this.config = await loadProjectConfig(this.root)
    const key = JSON.stringify(this.config.extensions)
    if (this.extensions?.key !== key) {
      const loaded = await loadExtensions(this.root, this.config.extensions, { loupeHome: this.deps.loupeHome, onMemoryFailure: (m) => this.notice('extension', m) })
      this.extensions = { key, loaded }
      for (const note of [...this.config.problems, ...loaded.notes]) this.notice('extension', note)
    }
    // Compared as gathering resolves it (a real path): a root reached through a link since would otherwise never match,
    // and every turn would read the session again.
    const here = this.state.frozen ? await realpath(this.root).catch(() => this.root) : this.root
    if (this.state.frozen && this.state.frozen.project.root !== here) this.rehome(this.state.frozen.project.root, here)
    if (this.state.frozen && this.nested) return
    const gathered = await this.gather()
    // A resumed session keeps its stored baseline: what changed while the app was closed is noted on the next message.
    if (!this.state.frozen || !this.baseline) this.setBaseline(gathered)
    if (!this.state.frozen) {
      const frozen = freezeSession(gathered, { contextWindowTokens: findModel(this.state.model)?.contextWindow ?? 200_000, skills: LISTS_SKILLS })
      this.save({ frozen })
    }
    this.nested = createNestedContextReader(gathered, this.state.frozen!.session.instructions, { homeDir: this.homeDir(), delivered: this.state.deliveredNotes })
  }

  /**
   * A session whose frozen prompt names another folder (imported from an export made elsewhere, into this project):
   * the prompt would tell the model it works in `from` while its tools run here. Everything frozen is read again
   * here, as at a session's first pass, and the conversation says so; the next pass writes its prompt afresh.
   */
  private rehome(from: string, here: string): void {
    this.nested = null
    this.save({ frozen: null, fileBaseline: null, deliveredNotes: [] })
    this.appendAndEmit(
      this.sessionLog.append([
        {
          kind: 'notice',
          source: 'instructions',
          level: 'info',
          text: `This session was recorded in ${from}; it now works in ${here}. Its instructions, memory and project context were read again here, so the next pass writes its prompt afresh.`,
        },
      ]),
    )
  }

  private notice(source: 'extension' | 'compaction', text: string): void {
    this.appendAndEmit(this.sessionLog.append([{ kind: 'notice', source, level: 'warning', text }]))
  }

  /**
   * A pass's plan from the frozen blocks; changes nothing in the session. `session` plans another session block;
   * `sections: false` leaves out the context sections a turn collected (a pre-warm, a summary request, a price: each
   * must have the bytes the passes cached, or leaves out what costs the same whatever is priced).
   */
  private planFor(history: ReadonlyArray<HistoryMessage>, previousTailIndex: number | null, maxTokens: number, options: { readonly session?: SessionSection; readonly sections?: boolean } = {}): PromptPlan {
    const { session, sections = true } = options
    const frozen = this.state.frozen!
    const thinking = this.thinking()
    return buildPromptPlan({
      model: this.state.model,
      maxTokens,
      ...(thinking ? { thinking } : {}),
      settings: promptSettings(this.deps.preferences?.().staticCacheTtl1h ?? false),
      tools: OFFERED_TOOLS,
      project: frozen.project,
      session: session ?? frozen.session,
      context: frozen.context,
      history,
      previousTailIndex,
      ...(sections && this.sections.length > 0 && history.at(-1)?.message.role === 'user' ? { extraSections: this.sections } : {}),
      hasher: this.deps.hasher,
    })
  }

  private planner(): PassPlanner {
    return {
      plan: (entries) => {
        // A pass goes out: the gap it ends needs no pre-warm.
        this.keepWarm.cancel()
        const history = this.history.toHistory(entries)
        const previous = this.state.previousHistoryLength
        // The previous pass's last message keeps its breakpoint, so a hit never depends on the 20-block lookback.
        const plan = this.planFor(history, previous > 0 && previous < history.length ? previous - 1 : null, this.maxOutputTokens())
        this.plannedHistoryLength = history.length
        return { request: renderRequest(plan), plan }
      },
    }
  }

  /**
   * The endpoint's client (read each time: the user may switch it), counting the tool and system prefixes no pass has
   * measured beside each pass it sends, so the pass's read is placed by real counts (node/cache/prefix-counts.ts).
   */
  private modelClient(): ModelClient {
    return countingPrefixes(this.deps.endpoint.client, this.deps.store, {
      now: () => this.deps.clock.now(),
      hasher: this.deps.hasher,
      onError: (err) => this.deps.log.warn('counting a prefix failed', { sessionId: this.sessionId, error: err instanceof Error ? err.stack : String(err) }),
    })
  }

  private host(): CompactionHost {
    return {
      sessionId: this.sessionId,
      root: this.root,
      store: this.deps.store,
      clock: this.deps.clock,
      model: this.modelClient(),
      lastMessageId: () => this.lastMainPass?.messageId ?? null,
      log: this.sessionLog,
      tools: this.tools,
      history: this.history,
      state: () => this.state,
      save: (next) => this.save(next),
      settings: () => this.config.settings,
      windowTokens: () => this.windowTokens(),
      maxOutputTokens: () => this.maxOutputTokens(),
      planner: () => (history, tail, maxTokens) => {
        // Summary requests carry no context sections: their prefix must be the bytes the passes cached.
        return this.planFor(history, tail, maxTokens, { sections: false })
      },
      systemTexts: (section) => {
        const plan = this.planFor([{ message: { role: 'user', content: [{ type: 'text', text: '.' }] }, provenance: { entryIds: [], kind: 'synthetic' } }], null, 1, { session: section })
        return { static: plan.system[0]?.wire.text ?? '', session: plan.system[1]?.wire.text ?? '' }
      },
      gather: () => this.gather(),
      contextBuilder: () => this.extensions?.loaded.contextBuilder ?? trimOldTools,
      compactor: () => this.extensions?.loaded.compactor ?? null,
      realTokens: () => contextTokensNow(this.sessionLog.entries(), this.lastMainPass).real,
      afterCheckpoint: (gathered) => {
        // The re-frozen block has the files as they are now: later changes are measured from here.
        this.setBaseline(gathered)
        // Nested instruction files and rules the summary replaced are delivered again when a read needs them.
        this.nested = createNestedContextReader(gathered, this.state.frozen!.session.instructions, { homeDir: this.homeDir(), delivered: [] })
      },
      emitLoop: (event) => this.deps.emit({ type: 'loop', event }),
      emitCompaction: (event) => this.emitCompaction(event),
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
      update: (toolUseId, request) => {
        const waiting = this.pending.get(toolUseId)
        if (!waiting) return false
        this.pending.set(toolUseId, { ...waiting, request })
        return true
      },
    }
  }

  private contextNotes(): ContextNotes {
    return {
      afterTool: async (_call, effects) => {
        // A project's own memory extension hears every fact the model saved (the file memory already has it).
        const memory = this.extensions?.loaded.memory
        if (memory && memory.name !== 'file') {
          for (const e of effects) if (e.type === 'memory_saved') await memory.save(e.fact, e.scope, { signal: new AbortController().signal, root: this.root }).catch(() => undefined)
        }
        const touched = effects.flatMap((e) => (e.type === 'file_read' || e.type === 'file_written' ? [e.path] : []))
        if (!this.nested || touched.length === 0) return []
        const notes: ContextNote[] = []
        const skipped: string[] = []
        for (const path of touched) {
          const found = await this.nested.forFile(path)
          notes.push(...found.notes)
          skipped.push(...found.gatherNotes.map((n) => n.message))
        }
        if (notes.length > 0) this.save({ deliveredNotes: this.nested.delivered() })
        // A nested instruction file that could not be read (binary, too big, a link out of the root) is said once,
        // in the conversation, rather than dropped unseen: the user wrote it for the agent to follow.
        if (skipped.length > 0) this.appendAndEmit(this.sessionLog.append(skipped.map((message) => ({ kind: 'notice' as const, source: 'nested_instructions' as const, level: 'warning' as const, text: `An instruction file the agent would have followed here: ${message}.` }))))
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

  /** Starts a run in the background: a turn, or a compaction when the message is `/compact [focus]`. */
  start(input: TurnInput): string {
    const command = input.kind === 'message' ? COMPACT_COMMAND.exec(input.text.trim()) : null
    if (command) {
      const focus = command[1]?.trim() || null
      return this.begin(async (signal) => {
        const outcome = await this.compaction.compact({ trigger: 'manual', focus, instructions: null, upto: null, dryRun: false, forceSummary: true, notify: true }, signal)
        // Nothing else of the command is recorded (it is not a message): the chat says it was cancelled, with what
        // was typed, as it says a compaction that found nothing to do. The window that sent it gets its text back.
        if (outcome.status === 'cancelled') {
          const typed = input.kind === 'message' ? input.text.trim() : '/compact'
          this.appendAndEmit(this.sessionLog.append([{ kind: 'notice', source: 'compaction', level: 'info', text: `You cancelled “${typed.length > 200 ? `${typed.slice(0, 200)}…` : typed}”: the conversation is exactly as it was.` }]))
        }
        return { reason: outcome.status === 'applied' ? 'compacted' : outcome.status === 'nothing_to_compact' ? 'nothing_to_compact' : outcome.status === 'cancelled' ? 'cancelled' : 'compaction_failed', passes: 0 }
      }).id
    }
    return this.begin((signal) => this.turn(input, signal)).id
  }

  /**
   * Instruction, rule, memory and skill files that changed on disk since the session block was frozen (or since the
   * last note about them) become `file_changed` notes on the user's next message: the model hears of the change,
   * the frozen block keeps its bytes (docs/context-engine.md, "once said, don't move it"), and the Files view offers
   * to apply the edit now. Each change is noted once.
   */
  private async changedFileNotes(): Promise<ContextNote[]> {
    if (!this.state.frozen) return []
    const now = await this.gather()
    if (!this.baseline) {
      this.setBaseline(now)
      return []
    }
    const notes = this.fileChangeNotes(now)
    this.setBaseline(now)
    return notes
  }

  /**
   * The `file_changed` notes the next user message would carry if the files on disk were `after` (the Files view
   * prices a deferred edit with them). None before the first pass.
   */
  fileChangeNotes(after: GatheredContext): ContextNote[] {
    if (!this.state.frozen || !this.baseline) return []
    return diffSignatures(this.baseline, fileSignatures(after, nodeHasher.sha256Hex)).map((c) => ({ kind: 'file_changed', path: c.path, fileKind: c.fileKind, change: c.change, entryId: null }))
  }

  /**
   * The part of the next pass's request that exists now: the frozen tools and system and the conversation as it
   * stands, without the message the user has not typed yet nor the context sections a turn collects (they travel
   * after the breakpoints and cost the same whatever is priced). After a compaction this is the summary and what
   * followed it, not the history the last pass sent: a price sized on it says what the next pass really sends.
   * Null before the first pass or with no conversation.
   */
  nextRequest(): WireRequest | null {
    if (!this.state.frozen) return null
    const history = this.history.toHistory(this.sessionLog.entries())
    if (history.length === 0) return null
    return renderRequest(this.planFor(history, null, this.maxOutputTokens(), { sections: false }))
  }

  private async turn(input: TurnInput, signal: AbortSignal): Promise<TurnResult> {
    if (input.kind === 'message' && !input.notes) {
      const notes = withCarriedNotes(this.state.carriedNotes, await this.changedFileNotes())
      if (notes.length > 0) input = { ...input, notes }
      // Carried once: the message about to be appended holds them from here on.
      if (this.state.carriedNotes.length > 0) this.save({ carriedNotes: [] })
    }
    let calls = 0
    const modelCalls = { take: () => ++calls <= EXTENSION_MODEL_CALLS_PER_TURN }
    const hook = createCompactionHook({
      host: this.host(),
      compaction: this.compaction,
      modelCalls,
      contextTokens: () => contextTokensNow(this.sessionLog.entries(), this.lastMainPass, () => this.estimateNow()).tokens,
      lastPassId: () => this.lastMainPass?.id ?? null,
      beforeCheck: async (sig) => {
        // The next pass is being prepared (a compaction may come first): the gap is over.
        this.keepWarm.cancel()
        const loaded = this.extensions?.loaded
        if (!loaded) return
        this.appendAndEmit(await perPassEdits(this.sessionLog, loaded.contextBuilder, this.config.settings, this.lastMainPass, { signal: sig, root: this.root }))
        const collected = await collectSections(loaded, this.sessionLog.entries(), { signal: sig, root: this.root })
        this.sections = collected.sections
        for (const f of collected.failures) {
          if (this.failedSections.has(f.name)) continue
          this.failedSections.add(f.name)
          this.notice('extension', f.message)
        }
      },
    })
    return runTurn(
      {
        model: this.modelClient(),
        tools: this.tools,
        log: this.sessionLog,
        planner: this.planner(),
        approvals: this.approvals(),
        controls: {
          root: this.root,
          // A command naming the data folder is on the deny list (engine/tools/command-rules.ts).
          ...(this.dataDir !== null ? { dataDir: this.dataDir } : {}),
          home: this.homeDir(),
          mode: () => this.state.mode,
          rules: () => this.state.rules,
          setRules: (rules) => this.save({ rules }),
          toolState: () => this.state.toolState,
          setToolState: (toolState) => this.save({ toolState }),
              lastMessageId: () => this.lastMainPass?.messageId ?? null,
        },
        clock: this.deps.clock,
        emit: (event) => {
          if (event.type === 'tool_started') this.toolsRunning.add(event.toolUseId)
          else if (event.type === 'tool_finished') this.toolsRunning.delete(event.toolUseId)
          this.deps.emit({ type: 'loop', event })
        },
        notes: this.contextNotes(),
        compaction: hook,
      },
      input,
      signal,
    )
  }

  /** The estimated size of the next pass (used only when no pass has measured the context). */
  private estimateNow(): number {
    if (!this.state.frozen) return 0
    const history = this.history.toHistory(this.sessionLog.entries())
    return history.length === 0 ? 0 : this.planFor(history, null, 1).tokens.total
  }

  private begin(work: (signal: AbortSignal) => Promise<RunResult>): { id: string; done: Promise<RunResult> } {
    if (this.run) throw new Error('busy')
    // The user sent (or compacts): the gap is over, and no pre-warm is sent for it.
    this.keepWarm.cancel()
    const passBefore = this.lastMainPass
    const entriesBefore = this.sessionLog.entries().length
    const id = `run_${this.deps.clock.now().toString(36)}_${++this.runCounter}`
    const controller = new AbortController()
    const done = (async (): Promise<RunResult> => {
      try {
        await this.prepare()
        return await work(controller.signal)
      } catch (err) {
        // A bug in the loop: the session stays valid (entries are only ever appended), and the user sees why.
        this.deps.log.error('run failed', { sessionId: this.sessionId, error: err instanceof Error ? err.stack : String(err) })
        const message = `Loupe failed while running the turn: ${err instanceof Error ? err.message : String(err)}`
        try {
          this.appendAndEmit(
            this.sessionLog.append([
              { kind: 'turn_failed', message, errorKind: 'internal', retryable: true },
              { kind: 'turn_ended', reason: 'error' },
            ]),
          )
        } catch (recordErr) {
          // The failure was the store itself (locked by another program, read-only, its disk full): writing that the
          // turn failed fails the same way. The turn still ends, in every window, with the reason.
          this.deps.log.error('run failure not recorded', { sessionId: this.sessionId, error: recordErr instanceof Error ? recordErr.message : String(recordErr) })
          return { reason: 'error', passes: 0, unrecorded: `${message}. The session could not be written to either, so this is not kept in it: ${recordErr instanceof Error ? recordErr.message : String(recordErr)}` }
        }
        return { reason: 'error', passes: 0 }
      }
    })()
    this.run = { id, controller, done }
    void done.then((result) => {
      this.run = null
      this.toolsRunning.clear()
      // A run that left the conversation as it was and sent no pass of it (a dry run, a compaction cancelled, failed
      // or with nothing to compact): the gap since the last pass goes on, so its pre-warm is planned again. A summary
      // request reads only the part of the prefix its trimmed copy shares, and the rest would expire.
      if (passBefore && this.lastMainPass === passBefore && !this.sessionLog.entries().slice(entriesBefore).some((e) => CONVERSATION_KINDS.has(e.kind))) this.keepWarm.passCommitted(passBefore)
      // A compaction that ended without saying so (it threw) must not be shown as running in any window.
      if (this.liveCompaction) {
        this.emitCompaction({ type: 'failed', compactionId: this.liveCompaction.compactionId, reason: 'failed', message: 'The compaction stopped with an error. The conversation is unchanged.' })
      }
      this.deps.emit({ type: 'turn_ended', runId: id, result })
    }).catch((err: unknown) => {
      // Nothing may escape as an unhandled rejection: it would end the whole process, every session with it.
      this.deps.log.error('turn end not announced', { sessionId: this.sessionId, error: err instanceof Error ? err.stack : String(err) })
    })
    return { id, done }
  }

  /** A compaction asked for from the UI (`compaction.run`): runs now, as the session's run, and answers when done. */
  async compactNow(
    options: { focus: string | null; upto: UptoTarget | null; dryRun: boolean; instructions: string | null },
    onStarted?: (runId: string) => void,
  ): Promise<{ runId: string; outcome: CompactOutcome }> {
    let outcome: CompactOutcome | null = null
    const run = this.begin(async (signal) => {
      outcome = await this.compaction.compact({ trigger: options.upto ? 'partial' : 'manual', focus: options.focus, instructions: options.instructions, upto: options.upto, dryRun: options.dryRun, forceSummary: true, notify: !options.dryRun }, signal)
      const o: CompactOutcome = outcome
      return { reason: o.status === 'applied' || o.status === 'draft' ? 'compacted' : o.status === 'nothing_to_compact' ? 'nothing_to_compact' : o.status === 'cancelled' ? 'cancelled' : 'compaction_failed', passes: 0 }
    })
    onStarted?.(run.id)
    const result = await run.done
    if (outcome === null) throw new Error(`The compaction did not run (${result.reason})`)
    return { runId: run.id, outcome }
  }

  /** Applies a dry run's draft (null when there is no such draft), as the session's run: nothing else runs meanwhile. */
  async applyDraft(draftId: string, summary: string | undefined): Promise<CompactOutcome | null> {
    let outcome: CompactOutcome | null = null
    const run = this.begin(async () => {
      outcome = await this.compaction.apply(draftId, summary)
      const o = outcome as CompactOutcome | null
      return { reason: o === null ? 'compaction_failed' : o.status === 'applied' ? 'compacted' : 'compaction_failed', passes: 0 }
    })
    await run.done
    return outcome
  }

  discardDraft(draftId: string): boolean {
    return this.compaction.discard(draftId)
  }

  drafts(): DraftView[] {
    return this.compaction.draftViews()
  }

  /** The pins changed: the dry runs waiting count them as applying would (SessionCompaction.refreshDrafts). */
  refreshDrafts(): Promise<void> {
    return this.compaction.refreshDrafts()
  }

  private emitCompaction(event: CompactionEvent): void {
    this.liveCompaction = nextLiveCompaction(this.liveCompaction, event, this.deps.clock.now())
    this.deps.emit({ type: 'compaction', event })
  }

  /** The compaction in flight with the summary text streamed so far, for a window that opens in its middle. */
  liveCompactionSnapshot(): LiveCompactionSnapshot | null {
    return this.liveCompaction
  }

  pins(): Pin[] {
    return foldPins(this.sessionLog.entries())
  }

  addPin(input: { text?: string; entryId?: string }): PinResult {
    const result = addPin(this.sessionLog, `pin_${this.deps.clock.now().toString(36)}_${++this.runCounter}`, input)
    if (result.ok) this.appendAndEmit(result.entries)
    return result
  }

  removePin(pinId: string): boolean {
    const entries = removePin(this.sessionLog, pinId)
    if (entries) this.appendAndEmit(entries)
    return entries !== null
  }

  /**
   * Each checkpoint with its summary passes, the real context size of the first pass after it, and its sizes before
   * and after on one basis (`checkpointContext`: what the next pass sends, at the checkpoint).
   */
  compactionRecords(): Array<{ checkpoint: Entry; realTokensAfter: number | null; context: CheckpointContext; passes: PassSummary[] }> {
    const passes = this.deps.store.passes.list(this.sessionId)
    const byId = new Map(passes.map((p) => [p.id, p]))
    const entries = this.sessionLog.entries()
    return entries.flatMap((checkpoint, index) => {
      if (checkpoint.kind !== 'checkpoint') return []
      const next = passes.find((p) => p.kind === 'main' && p.queuedAt >= checkpoint.at && p.usage !== null)
      const u = next?.usage
      return [
        {
          checkpoint,
          realTokensAfter: u ? u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens : null,
          context: checkpointContext(entries, index, passes),
          passes: checkpoint.summaryPassIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
        },
      ]
    })
  }

  /** Whether the model currently sees the session from a checkpoint. */
  lastCheckpointId(): string | null {
    return lastCheckpoint(this.sessionLog.entries())?.id ?? null
  }

  // --- Instruction and memory edits applied now (the Files view, docs/inspector.md "Files") ----------------------

  /**
   * Freezes the session block again from the files on disk, so the next pass sends the edited instruction or memory
   * files now instead of at the next compaction. The session block moves, so the next pass re-bills it (priced
   * beforehand by cache.priceEdit); the notice entry written here is what the cache attribution names as the cause
   * (origin `apply_now`). Before the first pass nothing is frozen yet, and the first pass reads the files as they are.
   */
  async applyInstructionEdits(paths: ReadonlyArray<string>): Promise<{ applied: boolean; entryId: string | null; message: string }> {
    if (this.run) throw new Error('busy')
    if (!this.state.frozen) return { applied: false, entryId: null, message: 'The session has not sent a pass yet: its first pass reads the files as they are now.' }
    const gathered = await this.gather()
    if (this.run || !this.state.frozen) throw new Error('busy')
    // The session block moves: a pre-warm of the old prefix would warm what the next pass no longer sends.
    this.keepWarm.cancel()
    // The block is read again whole, from disk: any other file changed since it was read goes out too (an edit the
    // user held for the next compaction among them). The notice and the cause name every one of them.
    const fresh = this.sessionSectionFromDisk(gathered, paths)
    // Only a file the block holds, or would hold read again, can be applied: any other path would be written into
    // the conversation's notice and the next pass's cause as if it had been sent.
    const held = new Set([...sessionFilePaths(this.state.frozen.session), ...sessionFilePaths(fresh)])
    const strangers = paths.filter((path) => !held.has(path))
    if (strangers.length > 0) throw new NotASessionFileError(strangers)
    // A file the budget cuts elsewhere because an applied one grew or shrank is sent otherwise, unchanged on disk.
    const changes = sessionFileChanges(this.state.frozen.session, fresh, paths)
    const others = changes.map((c) => c.path)
    const names = paths.join(', ')
    const along = others.length === 0 ? '' : ` with ${sessionChangeWords(changes)}`
    // The cause of the next pass's miss says when the files were edited, apart from when they were applied: the
    // files applied and those changed on disk, not those whose budget cut alone moved (their text is as it was).
    const editedAt = fileEditTimes(gathered, [...paths, ...changes.filter((c) => c.kind === 'changed').map((c) => c.path)])
    const entry = this.deps.store.transaction(() => {
      const [notice] = this.sessionLog.append([{ kind: 'notice', source: 'instructions', level: 'info', text: `${names} applied now${along}: the session block was read again from disk, so the next pass re-bills it.` }])
      const session = { ...fresh, origin: { kind: 'apply_now' as const, entryId: notice!.id, paths: [...paths, ...others], ...(editedAt.length > 0 ? { editedAt } : {}) } }
      this.save({ frozen: { ...this.state.frozen!, session } })
      return notice!
    })
    // Nested instruction files are delivered against the frozen block: the reader is made again from the new one.
    this.nested = null
    this.setBaseline(gathered)
    this.appendAndEmit([entry])
    return { applied: true, entryId: entry.id, message: `${names} applied now` }
  }

  /**
   * The instruction and memory files whose text on disk the session block does not hold: an edit saved for the next
   * compaction, one saved while a turn ran, or a change made outside Loupe. They are what applyInstructionEdits would
   * send (it reads the whole block again from disk), compared the same way it names them. None before the first pass:
   * the first pass reads the files as they are. `sent`: the session block the session sends meanwhile (the frozen
   * one), the one the paths were compared with; null before the first pass. `changes`: each path with how it differs,
   * so a file whose budget cut alone moved is not said to differ on disk.
   */
  async unappliedInstructionFiles(): Promise<{ paths: string[]; changes: SessionFileChange[]; sent: SessionSection | null }> {
    if (!this.state.frozen) return { paths: [], changes: [], sent: null }
    const gathered = await this.gather()
    const frozen = this.state.frozen
    if (!frozen) return { paths: [], changes: [], sent: null }
    const changes = sessionFileChanges(frozen.session, this.sessionSectionFromDisk(gathered, []))
    return { paths: changes.map((c) => c.path), changes, sent: frozen.session }
  }

  /** The session block as freezing it now from `gathered` would make it, as an apply-now of `paths`. */
  private sessionSectionFromDisk(gathered: GatheredContext, paths: ReadonlyArray<string>): SessionSection {
    return freezeSessionSection(gathered, { origin: { kind: 'apply_now', entryId: '', paths: [...paths] }, contextWindowTokens: findModel(this.state.model)?.contextWindow ?? 200_000, skills: LISTS_SKILLS })
  }

  /** Stops the run in flight (a turn, compaction and all, or a compaction the user asked for). */
  cancel(): boolean {
    if (!this.run) return false
    this.run.controller.abort()
    return true
  }

  /**
   * Stops the compaction in flight, and only it: a `/compact` or a compaction asked for from the UI ends cancelled,
   * and a turn that compacts (automatically, or because the model asked) goes on to its pass uncompacted.
   */
  cancelCompaction(): boolean {
    return this.compaction.cancel()
  }

  /** Resolves when the run in flight (if any) has ended. */
  async idle(): Promise<void> {
    await this.run?.done
  }

  /** The cache keep-warm of this session: its pre-warms are recorded once `settled()` resolves. */
  get cacheKeepWarm(): KeepWarm {
    return this.keepWarm
  }

  async dispose(): Promise<void> {
    // Closed first, so a pass that lands while the run winds down does not plan another pre-warm.
    this.keepWarm.close()
    this.cancel()
    await this.idle()
    await this.tools.dispose()
  }
}

/** The instruction and memory files a session block holds, by the paths the Files view names them. */
function sessionFilePaths(section: SessionSection): string[] {
  return [...section.instructions.parts, ...section.memory.parts].map((part) => part.path)
}

/** files.apply named a path that is none of the session's instruction or memory files. */
export class NotASessionFileError extends Error {
  constructor(readonly paths: ReadonlyArray<string>) {
    super(`${paths.join(', ')} ${paths.length === 1 ? 'is' : 'are'} not among this session's instruction or memory files: only a file its session block holds (or would hold, read again from disk) can be applied`)
  }
}

/** Whether any of the tool calls `toolUseIds` is a read_file (its text was shown to the model). */
function readsAmong(entries: ReadonlyArray<Entry>, toolUseIds: ReadonlyArray<string>): boolean {
  const ids = new Set(toolUseIds)
  return entries.some((e) => e.kind === 'assistant_message' && e.content.some((b) => b.type === 'tool_use' && b.name === 'read_file' && ids.has(b.id)))
}
