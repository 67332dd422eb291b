/**
 * Compaction for one open session: runs the engine's compaction (src-main/engine/compaction/), keeps dry-run drafts
 * until they are applied or thrown away, and applies a draft — the checkpoint entry, the session block frozen
 * again (where saved memories and instruction edits join the system prompt), the read-dedup memory cleared, the
 * recent files offered back, the previous tail forgotten — in one transaction, so a cancel or a failure before
 * that leaves the session exactly as it was (docs/compaction.md "Applying: what happens at a checkpoint").
 */
import type { Entry, EntryBody } from '../../engine/conversation/entries'
import { HistoryCache, modelView } from '../../engine/conversation/history'
import type { CompactionDraft, CompactionProgress, PrefixPlanner, ReofferedFile, UptoTarget } from '../../engine/compaction'
import { composeCheckpoint, draftStale, foldPins, runCompaction, type Compactor, type ContextBuilder, type PinCheck } from '../../engine/compaction'
import type { CompactionSettings } from '../../engine/compaction/settings'
import type { CheckpointBody, CheckpointTrigger } from '../../engine/conversation/checkpoint'
import type { LoopEvent } from '../../engine/loop/ports'
import type { TextBlock } from '../../engine/model/wire'
import type { Clock, ModelClient } from '../../engine/ports'
import { estimateTokens } from '../../engine/prompt/estimate'
import type { GatheredContext } from '../../engine/prompt/gathered'
import { freezeSessionSection, type SessionSection } from '../../engine/prompt/snapshot'
import type { ToolExecutor } from '../../engine/tools/executor'
import { applyToolEffects, forgetReadsAtCompaction } from '../../engine/tools/session-state'
import type { ToolEffect } from '../../engine/tools/types'
import { costUsd } from '../model/models'
import type { Store } from '../store'
import { effectsOfShownFiles, reofferFiles } from '../compaction/reoffer'
import { LISTS_SKILLS } from './prompt-settings'
import type { SessionState } from './state'
import type { StoreSessionLog } from './store-log'

/** What the controller needs from its session (SessionRuntime implements it). */
export interface CompactionHost {
  readonly sessionId: string
  readonly root: string
  readonly store: Store
  readonly clock: Clock
  readonly model: ModelClient
  readonly log: StoreSessionLog
  /** The id of the session's last answer, for the summary request's cache diagnostics. */
  lastMessageId(): string | null
  readonly tools: ToolExecutor
  readonly history: HistoryCache
  state(): SessionState
  save(next: Partial<SessionState>): void
  settings(): CompactionSettings
  windowTokens(): number
  maxOutputTokens(): number
  /** Plans a pass with the session's frozen blocks without touching the session's state. */
  planner(): PrefixPlanner
  /** The static and session system texts a pass would carry with `section` as the session block. */
  systemTexts(section: SessionSection): { readonly static: string; readonly session: string }
  gather(): Promise<GatheredContext>
  contextBuilder(): ContextBuilder
  compactor(): Compactor | null
  /** The real size of the context now, when a pass has measured it since the last checkpoint. */
  realTokens(): number | null
  /** Called after a checkpoint was committed, with what was gathered for it (nested instructions start over). */
  afterCheckpoint(gathered: GatheredContext): void
  emitLoop(event: LoopEvent): void
  emitCompaction(event: CompactionEvent): void
}

export type CompactionFailure = 'failed' | 'cancelled' | 'refused' | 'nothing_to_compact' | 'stale'

export interface DraftView {
  readonly draftId: string
  readonly trigger: CheckpointTrigger
  readonly focus: string | null
  readonly stage: 'trim' | 'summary'
  readonly summary: string | null
  readonly form: CompactionDraft['form']
  /** The new first message, as the model would see it. */
  readonly head: ReadonlyArray<TextBlock> | null
  /** The entries kept whole after the head. */
  readonly keptEntryIds: ReadonlyArray<string>
  readonly trimmed: CompactionDraft['trims']
  readonly files: ReadonlyArray<{ readonly path: string; readonly tokens: number; readonly offered: 'content' | 'path_only' }>
  readonly pins: ReadonlyArray<{ readonly pinId: string; readonly status: string }>
  readonly tokens: { readonly before: { readonly real: number | null; readonly estimated: number }; readonly after: { readonly estimated: number }; readonly windowTokens: number; readonly targetTokens: number }
  readonly costUsd: number
  readonly passIds: ReadonlyArray<string>
  readonly notes: ReadonlyArray<string>
  /**
   * The conversation moved on since the dry run (a message, an answer, a context edit or a checkpoint the draft did
   * not see): it can no longer be applied. It is kept until discarded, so the summary the user edited stays to copy.
   */
  readonly stale: boolean
}

export type CompactionEvent =
  | { readonly type: 'started'; readonly compactionId: string; readonly trigger: CheckpointTrigger; readonly focus: string | null; readonly dryRun: boolean }
  | { readonly type: 'progressed'; readonly compactionId: string; readonly progress: CompactionProgress }
  | { readonly type: 'drafted'; readonly compactionId: string; readonly draft: DraftView }
  | { readonly type: 'applied'; readonly compactionId: string; readonly checkpoint: Entry; readonly pins: ReadonlyArray<{ pinId: string; status: string }> }
  | { readonly type: 'failed'; readonly compactionId: string; readonly reason: CompactionFailure; readonly message: string }

export type CompactOutcome =
  | { readonly status: 'applied'; readonly compactionId: string; readonly checkpoint: Entry }
  | { readonly status: 'draft'; readonly compactionId: string; readonly draft: DraftView }
  | { readonly status: CompactionFailure; readonly compactionId: string; readonly message: string }

export interface CompactOptions {
  readonly trigger: CheckpointTrigger
  readonly focus: string | null
  readonly instructions: string | null
  readonly upto: UptoTarget | null
  readonly dryRun: boolean
  /** Stage 2 whatever stage 1 achieved (everything but automatic compaction). */
  readonly forceSummary: boolean
  readonly keepSteps?: number
  /** Keep fewer steps when the usual tail would leave no room to reach the target (automatic compaction). */
  readonly adaptKeep?: boolean
  /** The turn's model-call cap, shared with the extensions. */
  readonly modelCalls?: { take(): boolean }
  /** Show failures as a notice in the conversation. */
  readonly notify: boolean
}

interface HeldDraft {
  readonly draft: CompactionDraft
  readonly files: ReadonlyArray<ReofferedFile>
  /** Each re-offered file's read effects, by path: applied for the files the checkpoint shows (effectsOfShownFiles). */
  readonly readEffects: ReadonlyMap<string, ReadonlyArray<ToolEffect>>
  readonly view: DraftView
}

export class SessionCompaction {
  private readonly drafts = new Map<string, HeldDraft>()
  private counter = 0
  // The compaction in flight has its own abort, tied to the run's: stopping the run stops it, and cancelling it alone
  // (its card's Cancel, Esc) leaves a turn it runs in to go on with its pass uncompacted.
  private inFlight: AbortController | null = null

  constructor(private readonly host: CompactionHost) {}

  private newId(): string {
    return `cmp_${this.host.clock.now().toString(36)}_${++this.counter}`
  }

  draftViews(): DraftView[] {
    const entries = this.host.log.entries()
    return [...this.drafts.values()].map((d) => ({ ...d.view, stale: draftStale(d.draft, entries) }))
  }

  /**
   * The pins changed: each draft still current is composed again with them, so that its size after and its pins'
   * fates are what applying it would give (a pin the summary does not hold is re-injected, and counts).
   */
  async refreshDrafts(): Promise<void> {
    for (const [id, held] of [...this.drafts]) {
      if (draftStale(held.draft, this.host.log.entries())) continue
      // The pin is made whatever happens here: a draft that cannot be composed now (its project's files unreadable)
      // keeps its figures, and applying it says why.
      const composed = await this.compose(held, undefined).catch(() => null)
      // Applied, discarded or refreshed again meanwhile: what is held now is newer than this.
      if (!composed?.ok || this.drafts.get(id) !== held) continue
      this.drafts.set(id, { ...held, view: this.viewOf(id, held.draft, composed.body, this.host.log.entries()) })
    }
  }

  discard(draftId: string): boolean {
    return this.drafts.delete(draftId)
  }

  private notice(level: 'info' | 'warning', text: string, source: 'compaction' | 'pins' = 'compaction'): void {
    const entries = this.host.log.append([{ kind: 'notice', source, level, text }])
    this.host.emitLoop({ type: 'entries_appended', entries })
  }

  private fail(id: string, reason: CompactionFailure, message: string, notify: boolean): CompactOutcome {
    this.host.emitCompaction({ type: 'failed', compactionId: id, reason, message })
    if (notify && reason !== 'cancelled') this.notice(reason === 'nothing_to_compact' ? 'info' : 'warning', message)
    return { status: reason, compactionId: id, message }
  }

  /** Cancels the compaction in flight, and only it; false when none runs. */
  cancel(): boolean {
    if (!this.inFlight) return false
    this.inFlight.abort()
    return true
  }

  /** Runs a compaction; applies it unless it is a dry run. `runSignal` is the run's (a turn's, or the compaction's own). */
  async compact(options: CompactOptions, runSignal: AbortSignal): Promise<CompactOutcome> {
    const own = new AbortController()
    const stopWithRun = () => own.abort()
    if (runSignal.aborted) own.abort()
    else runSignal.addEventListener('abort', stopWithRun, { once: true })
    this.inFlight = own
    try {
      return await this.compactUnder(options, own.signal)
    } finally {
      runSignal.removeEventListener('abort', stopWithRun)
      if (this.inFlight === own) this.inFlight = null
    }
  }

  private async compactUnder(options: CompactOptions, signal: AbortSignal): Promise<CompactOutcome> {
    const id = this.newId()
    const { host } = this
    host.emitCompaction({ type: 'started', compactionId: id, trigger: options.trigger, focus: options.focus, dryRun: options.dryRun })
    const state = host.state()
    const entries = host.log.entries()
    const previous = state.previousHistoryLength
    const historyLength = host.history.toHistory(entries).length
    const result = await runCompaction(
      {
        model: host.model,
        lastMessageId: () => host.lastMessageId(),
        log: host.log,
        planner: host.planner(),
        clock: host.clock,
        priceUsd: (model, usage) => costUsd(model, usage),
        contextBuilder: host.contextBuilder(),
        ...(host.compactor() ? { compactor: host.compactor()! } : {}),
        ...(options.modelCalls ? { modelCalls: options.modelCalls } : {}),
        onProgress: (progress) => host.emitCompaction({ type: 'progressed', compactionId: id, progress }),
        history: host.history,
      },
      {
        entries,
        previousTailIndex: previous > 0 && previous <= historyLength ? previous - 1 : null,
        settings: host.settings(),
        windowTokens: host.windowTokens(),
        realTokens: host.realTokens(),
        model: state.model,
        maxOutputTokens: host.maxOutputTokens(),
        root: host.root,
        origin: state.frozen?.session.origin ?? { kind: 'session_start' },
      },
      { trigger: options.trigger, focus: options.focus, instructions: options.instructions, upto: options.upto, forceSummary: options.forceSummary, ...(options.keepSteps ? { keepSteps: options.keepSteps } : {}), ...(options.adaptKeep ? { adaptKeep: true } : {}) },
      signal,
    )
    switch (result.status) {
      case 'nothing_to_compact':
        return this.fail(id, 'nothing_to_compact', result.reason, options.notify)
      case 'cancelled':
        return this.fail(id, 'cancelled', 'The compaction was cancelled; the conversation is unchanged.', options.notify)
      case 'failed':
        return this.fail(id, 'failed', `The compaction failed: ${result.reason}. The conversation is unchanged.`, options.notify)
      case 'draft':
        break
    }
    const draft = result.draft
    let files: ReofferedFile[] = []
    let readEffects: ReadonlyMap<string, ReadonlyArray<ToolEffect>> = new Map()
    if (draft.stage === 'summary') {
      const history = new HistoryCache().fromView(modelView(entries))
      const keptIds = new Set(history.slice(draft.splitIndex).flatMap((m) => m.provenance.entryIds))
      // Instruction files the session block sends whole are in the system prompt already: not offered twice.
      const alreadySent = new Set((state.frozen?.session.instructions.parts ?? []).filter((p) => p.allocation === 'full').map((p) => p.path))
      const offered = await reofferFiles({ entries, keptEntryIds: keptIds, alreadySent, tools: host.tools, toolState: state.toolState, settings: host.settings(), signal })
      files = offered.files
      readEffects = offered.readEffects
    }
    if (signal.aborted) return this.fail(id, 'cancelled', 'The compaction was cancelled; the conversation is unchanged.', options.notify)
    const held = { draft, files, readEffects }
    if (options.dryRun) {
      const composed = await this.compose(held, undefined)
      if (!composed.ok) return this.fail(id, composed.code === 'stale' ? 'stale' : 'refused', composed.reason, false)
      const view = this.viewOf(id, draft, composed.body, entries)
      this.drafts.set(id, { ...held, view })
      host.emitCompaction({ type: 'drafted', compactionId: id, draft: view })
      return { status: 'draft', compactionId: id, draft: view }
    }
    return this.commit(id, held, undefined, options.notify)
  }

  /** Applies a draft made by a dry run, with the summary as the user edited it. */
  async apply(draftId: string, summary: string | undefined): Promise<CompactOutcome | null> {
    const held = this.drafts.get(draftId)
    if (!held) return null
    const outcome = await this.commit(draftId, held, summary, false)
    // A stale draft stays, marked so by draftViews, until the user discards it: the summary they edited is in their
    // window only (decision 0012), and goes with the card.
    if (outcome.status === 'applied') this.drafts.delete(draftId)
    return outcome
  }

  private async compose(held: Omit<HeldDraft, 'view'>, summary: string | undefined) {
    const { host } = this
    const gathered = await host.gather()
    const state = host.state()
    const section = freezeSessionSection(gathered, { origin: { kind: 'checkpoint', entryId: 'pending' }, contextWindowTokens: host.windowTokens(), skills: LISTS_SKILLS })
    const texts = host.systemTexts(section)
    const before = state.frozen ? host.systemTexts(state.frozen.session).session : ''
    const composed = composeCheckpoint({
      draft: held.draft,
      entries: host.log.entries(),
      ...(summary !== undefined ? { summary } : {}),
      files: held.files,
      pins: foldPins(host.log.entries()),
      systemText: `${texts.static}\n${texts.session}`,
      sessionBlock: { changed: before !== texts.session, tokensBefore: estimateTokens(before), tokensAfter: estimateTokens(texts.session) },
    })
    return composed.ok ? { ...composed, section, gathered } : composed
  }

  private async commit(id: string, held: Omit<HeldDraft, 'view'>, summary: string | undefined, notify: boolean): Promise<CompactOutcome> {
    const { host } = this
    const composed = await this.compose(held, summary)
    if (!composed.ok) return this.fail(id, composed.code === 'stale' ? 'stale' : 'refused', composed.reason, notify)
    const { checkpoint, pins } = host.store.transaction(() => {
      const [checkpoint] = host.log.append([composed.body as EntryBody])
      const state = host.state()
      const session = { ...composed.section, origin: { kind: 'checkpoint' as const, entryId: checkpoint!.id } }
      host.save({
        ...(state.frozen ? { frozen: { ...state.frozen, session } } : {}),
        // The new history has no previous pass: its first pass writes the cache afresh.
        previousHistoryLength: 0,
        toolState: applyToolEffects(forgetReadsAtCompaction(state.toolState), effectsOfShownFiles(held.readEffects, composed.body.reinjected.files)),
        // Nested instruction files and rules the summary replaced are delivered again when a read needs them.
        deliveredNotes: [],
        compaction: { ...state.compaction, pending: null },
      })
      return { checkpoint: checkpoint!, pins: composed.pins }
    })
    host.afterCheckpoint(composed.gathered)
    host.emitLoop({ type: 'entries_appended', entries: [checkpoint] })
    host.emitCompaction({ type: 'applied', compactionId: id, checkpoint, pins: pins.map((p: PinCheck) => ({ pinId: p.pin.pinId, status: p.status })) })
    const lost = pins.filter((p: PinCheck) => p.status === 'lost')
    if (lost.length > 0) {
      this.notice('warning', `${lost.length} pinned fact${lost.length === 1 ? '' : 's'} did not survive the compaction (too long to re-inject): ${lost.map((p) => `“${p.pin.text.slice(0, 60)}”`).join(', ')}.`, 'pins')
    }
    return { status: 'applied', compactionId: id, checkpoint }
  }

  private viewOf(id: string, draft: CompactionDraft, body: CheckpointBody, entries: ReadonlyArray<Entry>): DraftView {
    const history = new HistoryCache().fromView(modelView(entries))
    return {
      draftId: id,
      trigger: draft.request.trigger,
      focus: draft.request.focus,
      stage: draft.stage,
      summary: draft.summary,
      form: draft.form,
      head: body.view.head,
      keptEntryIds: draft.stage === 'summary' ? history.slice(draft.splitIndex).flatMap((m) => m.provenance.entryIds) : history.flatMap((m) => m.provenance.entryIds),
      trimmed: draft.trims,
      files: body.reinjected.files,
      pins: body.reinjected.pins,
      tokens: body.tokens,
      costUsd: draft.costUsd,
      passIds: draft.passes.map((p) => p.passId),
      notes: body.notes,
      stale: false,
    }
  }
}
