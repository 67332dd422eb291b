/**
 * One compaction, up to a draft: find the split, run stage 1 (the `context` extension, `trim-old-tools` by default),
 * stop there when the target is reached and no summary was asked for, else run stage 2 (the `compactor`). Nothing
 * is written to the session here except the summary passes: the draft becomes a checkpoint only when it is applied
 * (checkpoint.ts), so a cancel or a failure leaves the entries exactly as they were (docs/compaction.md
 * "Applying: what happens at a checkpoint").
 */
import type { CheckpointTrigger, ContextEditRecord, TrimRecord } from '../conversation/checkpoint'
import type { Entry, EntryId } from '../conversation/entries'
import { HistoryCache, modelView } from '../conversation/history'
import type { PassCommit, PlannedPass, SessionLog } from '../loop/ports'
import type { Usage, WireMessage } from '../model/wire'
import type { Clock, ModelClient, ModelStreamEvent } from '../ports'
import type { HistoryMessage } from '../prompt/input'
import type { SnapshotOrigin } from '../prompt/snapshot'
import { defaultCompactor, SummaryCallError } from './compactor'
import { contextEntries, historyAfterEdits, reviewEdits } from './edits'
import { calibrate, messagesTokens } from './estimate'
import { estimateTokens } from '../prompt/estimate'
import type { Compactor, CompactorContext, ContextBuilder, ContextEdit, ModelAnswer, StandaloneAsk } from './extensions'
import { summaryInstruction } from './summary-instruction'
import { findSplit, type UptoTarget } from './split'
import { chooseForm, prefixSummaryPass, standaloneSummaryPass, type PrefixPlanner } from './summary-request'
import { SUMMARY_MAX_TOKENS, type CompactionSettings } from './settings'
import { summaryStreamMeter, type SummaryStreamingProgress } from './stream-progress'
import { trimOldTools } from './trim'

export interface CompactionRequest {
  readonly trigger: CheckpointTrigger
  readonly focus: string | null
  readonly instructions: string | null
  readonly upto: UptoTarget | null
  /** Run stage 2 whatever stage 1 achieved (manual, partial and the model's tool do). */
  readonly forceSummary: boolean
  /** Keep this many assistant turns instead of the setting (automatic compaction retries with 1). */
  readonly keepSteps?: number
  /**
   * Keep fewer steps when the usual tail alone would take more than half of the target, so the compaction can
   * reach it (automatic compaction; a manual one keeps what the user's settings say).
   */
  readonly adaptKeep?: boolean
}

/** The least a summary with its marker takes (estimated tokens): less than this before the split is not worth one. */
export const MIN_SUMMARY_TOKENS = 300

export interface CompactionInput {
  readonly entries: ReadonlyArray<Entry>
  /** Index of the previous pass's last message in the current history (its tail carries a breakpoint), or null. */
  readonly previousTailIndex: number | null
  readonly settings: CompactionSettings
  readonly windowTokens: number
  /** The real size of the context now (the last response's count plus what was added since); null before any pass. */
  readonly realTokens: number | null
  readonly model: string
  readonly maxOutputTokens: number
  readonly root: string
  readonly origin: SnapshotOrigin
}

export type CompactionProgress =
  | { readonly stage: 'trimmed'; readonly trimmed: number; readonly savedTokens: number; readonly enough: boolean }
  | { readonly stage: 'summary_started'; readonly form: 'cut' | 'upto' | 'standalone' }
  /** The summary's text as it forms, throttled and bounded (stream-progress.ts). */
  | SummaryStreamingProgress
  | { readonly stage: 'summary_finished'; readonly form: 'cut' | 'upto' | 'standalone'; readonly passId: string; readonly status: PassCommit['status'] }
  | { readonly stage: 'extension_failed'; readonly extension: string; readonly message: string }

export interface CompactionDeps {
  readonly model: ModelClient
  /**
   * The id of the session's last answer: a summary request continues that conversation, so the API's cache
   * diagnostics compare it with that request, as the app's own attribution does. Absent: not compared.
   */
  readonly lastMessageId?: () => string | null
  readonly log: Pick<SessionLog, 'commitPass'>
  readonly planner: PrefixPlanner
  readonly clock: Clock
  readonly priceUsd: (model: string, usage: Usage) => number | null
  /** Stage 1; `trim-old-tools` when absent. */
  readonly contextBuilder?: ContextBuilder
  /** Stage 2; the default compactor when absent. A failing one degrades to the default with a note. */
  readonly compactor?: Compactor
  /** The per-turn model-call cap shared by extensions; every summary pass takes one call. */
  readonly modelCalls?: { take(): boolean }
  readonly onProgress?: (progress: CompactionProgress) => void
  readonly onStream?: (event: ModelStreamEvent) => void
  /** The session's history cache, so the summary request reuses the very message objects the passes sent. */
  readonly history?: HistoryCache
}

export interface SummaryPassRecord {
  readonly passId: string
  readonly status: PassCommit['status']
  readonly costUsd: number
  readonly form: 'cut' | 'upto' | 'standalone'
}

export interface CompactionDraft {
  readonly request: CompactionRequest
  readonly stage: 'trim' | 'summary'
  /** Stage 1 alone brought the (calibrated) estimate to the target. */
  readonly reachedTarget: boolean
  /** First kept message: its index in the history and its first entry. */
  readonly splitIndex: number
  readonly splitEntryId: EntryId
  readonly keptSteps: number
  readonly trims: ReadonlyArray<TrimRecord>
  readonly trimEdits: ReadonlyArray<ContextEditRecord>
  readonly summary: string | null
  readonly form: 'cut' | 'upto' | 'standalone' | 'extension' | null
  readonly passes: ReadonlyArray<SummaryPassRecord>
  readonly costUsd: number
  readonly tokens: {
    readonly before: { readonly real: number | null; readonly estimated: number }
    /** Tools and system blocks, estimated: what any history is sent with. */
    readonly overhead: number
    readonly afterStage1: number
    readonly windowTokens: number
    readonly targetTokens: number
  }
  readonly firstRequest: string | null
  /** The user's newest request when it is in the summarised part. */
  readonly latestRequest: string | null
  readonly replaced: { readonly fromEntryId: EntryId | null; readonly toEntryId: EntryId | null; readonly entries: number; readonly messages: number; readonly estimatedTokens: number } | null
  /** The session as it was when the draft was made: applying refuses if it moved on. */
  readonly basedOn: { readonly entries: number; readonly lastEntryId: string | null }
  readonly notes: ReadonlyArray<string>
}

export type CompactionResult =
  | { readonly status: 'draft'; readonly draft: CompactionDraft }
  | { readonly status: 'nothing_to_compact'; readonly reason: string }
  | { readonly status: 'failed'; readonly reason: string; readonly passes: ReadonlyArray<SummaryPassRecord>; readonly costUsd: number }
  | { readonly status: 'cancelled'; readonly passes: ReadonlyArray<SummaryPassRecord>; readonly costUsd: number }

function userText(entry: Entry): string | null {
  if (entry.kind !== 'user_message') return null
  const text = entry.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')
  return text.trim() === '' ? null : text
}

function firstRequestOf(entries: ReadonlyArray<Entry>): string | null {
  for (const e of entries) {
    const t = userText(e)
    if (t !== null) return t
  }
  return null
}

function keptStartText(message: HistoryMessage | undefined): string | null {
  if (message === undefined) return null
  for (const b of message.message.content) {
    if (b.type === 'text' && b.text.trim() !== '') return b.text
    if (b.type === 'tool_use') return `[tool call ${b.name}]`
  }
  return null
}

export async function runCompaction(deps: CompactionDeps, input: CompactionInput, request: CompactionRequest, signal: AbortSignal): Promise<CompactionResult> {
  const view = modelView(input.entries)
  const history = (deps.history ?? new HistoryCache()).fromView(view)
  // No message yet: there is no request to plan, let alone one to summarise.
  if (history.length === 0) return { status: 'nothing_to_compact', reason: 'Nothing to compact yet: the conversation has no message.' }
  const basePlan = deps.planner(history, input.previousTailIndex, input.maxOutputTokens)
  const overhead = basePlan.tokens.tools + basePlan.tokens.system
  const wire = history.map((m) => m.message)
  const estimatedBefore = overhead + messagesTokens(wire)
  const targetTokens = Math.floor(input.settings.target * input.windowTokens)

  let keepSteps = request.keepSteps ?? input.settings.keepSteps
  let split = findSplit(history, keepSteps, request.upto)
  const notes: string[] = []
  if (request.adaptKeep && request.upto === null && split.ok) {
    const keptTokens = (index: number) => calibrate(messagesTokens(wire.slice(index)), input.realTokens, estimatedBefore)
    while (split.ok && keepSteps > 1 && keptTokens(split.index) > targetTokens / 2) {
      keepSteps -= 1
      split = findSplit(history, keepSteps, null)
    }
    if (keepSteps < (request.keepSteps ?? input.settings.keepSteps)) notes.push(`Kept the last ${keepSteps} step${keepSteps === 1 ? '' : 's'} instead of ${input.settings.keepSteps}: the usual tail alone was more than half of the target.`)
  }
  if (!split.ok) return { status: 'nothing_to_compact', reason: split.reason }
  if (split.clamped) notes.push('Nothing came after the chosen entry, so the last step is kept whole and everything before it is summarised.')

  // Stage 1.
  const entryIndex = new Map<string, number>()
  history.forEach((m, i) => m.provenance.entryIds.forEach((id) => entryIndex.set(id, i)))
  const views = contextEntries(view, (e) => (entryIndex.get(e.id) ?? Number.POSITIVE_INFINITY) < split.index)
  const builder = deps.contextBuilder ?? trimOldTools
  let proposed: ReadonlyArray<ContextEdit>
  try {
    proposed = await builder.edits({ phase: 'compaction', entries: views, settings: input.settings }, { signal, root: input.root })
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    notes.push(`The context extension ${builder.name} failed (${message}); the built-in trim-old-tools ran instead.`)
    deps.onProgress?.({ stage: 'extension_failed', extension: builder.name, message })
    proposed = await trimOldTools.edits({ phase: 'compaction', entries: views, settings: input.settings }, { signal, root: input.root })
  }
  const review = reviewEdits(views, proposed)
  for (const r of review.refused) notes.push(`Edit of ${r.edit.entryId} refused: ${r.reason}.`)
  let trimEdits = review.accepted
  let trimmedHistory = history
  if (trimEdits.length > 0) {
    const after = historyAfterEdits(view, trimEdits, 'stage1')
    if (after.problems.length > 0) {
      notes.push(`Stage 1 edits refused: the history would be invalid (${after.problems[0]}).`)
      trimEdits = []
    } else trimmedHistory = after.history
  }
  const textById = new Map(views.map((v) => [v.entryId as string, v]))
  const trims: TrimRecord[] = trimEdits.map((e) => {
    const v = textById.get(e.entryId)
    return { entryId: e.entryId, toolName: v?.call?.name ?? '', chars: v?.text.length ?? 0, keptChars: e.content?.length ?? 0 }
  })
  const afterStage1 = overhead + messagesTokens(trimmedHistory.map((m) => m.message))
  const saved = estimatedBefore - afterStage1
  const calibratedAfter = calibrate(afterStage1, input.realTokens, estimatedBefore)
  const enough = calibratedAfter <= targetTokens
  deps.onProgress?.({ stage: 'trimmed', trimmed: trims.length, savedTokens: saved, enough })

  const visibleEntries = view.entries
  const firstKept = history[split.index]!.provenance.entryIds[0]! as EntryId
  const summarisedEntries = visibleEntries.filter((e) => (entryIndex.get(e.id) ?? Number.POSITIVE_INFINITY) < split.index)
  const latest = [...visibleEntries].reverse().find((e) => userText(e) !== null)
  const latestRequest = latest !== undefined && (entryIndex.get(latest.id) ?? 0) < split.index ? userText(latest) : null
  const base = {
    request,
    splitIndex: split.index,
    splitEntryId: firstKept,
    keptSteps: history.slice(split.index).filter((m) => m.message.role === 'assistant').length,
    reachedTarget: enough,
    trims,
    trimEdits,
    tokens: { before: { real: input.realTokens, estimated: estimatedBefore }, overhead, afterStage1, windowTokens: input.windowTokens, targetTokens },
    firstRequest: firstRequestOf(input.entries),
    latestRequest,
    basedOn: { entries: input.entries.length, lastEntryId: input.entries.at(-1)?.id ?? null },
  }
  if (enough && !request.forceSummary) {
    if (trims.length === 0) return { status: 'nothing_to_compact', reason: 'The context is already below the compaction target.' }
    return { status: 'draft', draft: { ...base, stage: 'trim', summary: null, form: null, passes: [], costUsd: 0, replaced: null, notes } }
  }

  // Stage 2, unless what it would replace is smaller than the least a head costs: the summary could only grow the
  // context, and it is better refused before it is paid for ("Refuse before paying" in
  // docs/decisions/0006-compaction.md).
  const summarisedTokens = messagesTokens(trimmedHistory.slice(0, split.index).map((m) => m.message))
  const headFloor = estimateTokens(base.firstRequest ?? '') + MIN_SUMMARY_TOKENS
  if (summarisedTokens <= headFloor) {
    if (trims.length > 0) {
      notes.push('Stage 2 was skipped: after stage 1, the part before the kept steps is no larger than a summary of it would be.')
      return { status: 'draft', draft: { ...base, stage: 'trim', summary: null, form: null, passes: [], costUsd: 0, replaced: null, notes } }
    }
    return {
      status: 'nothing_to_compact',
      reason: `Nothing worth compacting: the part before the kept steps is about ${summarisedTokens.toLocaleString('en-US')} tokens, no more than a summary of it would take.`,
    }
  }
  const passes: SummaryPassRecord[] = []
  const costOf = () => passes.reduce((n, p) => n + p.costUsd, 0)
  const maxTokens = Math.min(SUMMARY_MAX_TOKENS, input.maxOutputTokens)
  /** Streams of summary text in this compaction, numbered for the progress (a retry or a second pass starts anew). */
  let streams = 0
  const send = async (planned: PlannedPass, form: SummaryPassRecord['form']): Promise<ModelAnswer> => {
    if (signal.aborted) return { ok: false, cancelled: true, message: 'The compaction was cancelled.', passId: null }
    if (deps.modelCalls && !deps.modelCalls.take()) return { ok: false, cancelled: false, message: 'The model-call cap for this turn is reached.', passId: null }
    deps.onProgress?.({ stage: 'summary_started', form })
    const queuedAt = deps.clock.now()
    let firstByteAt: number | null = null
    const meter = summaryStreamMeter({ clock: deps.clock, form, nextStream: () => ++streams, emit: (p) => deps.onProgress?.(p) })
    const previousMessageId = deps.lastMessageId?.() ?? null
    const outcome = await deps.model.send(planned.request, {
      signal,
      ...(previousMessageId ? { previousMessageId } : {}),
      onEvent: (event) => {
        // A `retrying` event is the client's, not the service's: a refusal's wait is not a first byte.
        if (event.type !== 'retrying') firstByteAt ??= deps.clock.now()
        deps.onStream?.(event)
        meter.onEvent(event)
      },
    })
    meter.flush()
    const doneAt = deps.clock.now()
    firstByteAt = outcome.attempts.at(-1)?.firstByteAt ?? firstByteAt
    const message = outcome.ok ? outcome.message : outcome.partial
    const cancelled = !outcome.ok && (outcome.error.kind === 'aborted' || signal.aborted)
    const status: PassCommit['status'] = outcome.ok ? 'done' : cancelled ? 'cancelled' : 'failed'
    const committed = deps.log.commitPass(
      { kind: 'summary', model: planned.request.model, status, queuedAt, firstByteAt, doneAt, plan: planned.plan, attempts: outcome.attempts, message, error: outcome.ok ? null : { kind: outcome.error.kind, message: outcome.error.message } },
      () => [],
    )
    const passId = committed.passId
    // What the log billed (every attempt, a stream sent again included), else the answer's price.
    const billed = committed.costUsd !== undefined ? committed.costUsd : message?.usage ? deps.priceUsd(planned.request.model, message.usage) : null
    passes.push({ passId, status, costUsd: billed ?? 0, form })
    deps.onProgress?.({ stage: 'summary_finished', form, passId, status })
    if (!outcome.ok) return { ok: false, cancelled, message: outcome.error.message, passId }
    const text = outcome.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')
    return { ok: true, text, calledTool: outcome.message.content.some((b) => b.type === 'tool_use'), passId }
  }
  const instructionFor = (form: 'cut' | 'upto' | 'standalone') =>
    summaryInstruction({ form, focus: request.focus, instructions: request.instructions, keptStart: keptStartText(history[split.index]), keptSteps: base.keptSteps })
  const ctx: CompactorContext = {
    signal,
    root: input.root,
    preferredForm: chooseForm({ history, splitIndex: split.index, entries: input.entries, now: deps.clock.now() }),
    defaultInstruction: instructionFor,
    askWithPrefix: (instruction, form) =>
      send(prefixSummaryPass(deps.planner, history, { form, splitIndex: split.index, previousTailIndex: input.previousTailIndex, instruction, maxTokens }), form),
    ask: (ask: StandaloneAsk) => send(standaloneSummaryPass(input.model, maxTokens, ask.system, ask.messages, input.origin), 'standalone'),
  }
  const compactorInput = {
    trigger: request.trigger,
    focus: request.focus,
    instructions: request.instructions,
    summarised: trimmedHistory.slice(0, split.index).map((m) => m.message) as WireMessage[],
    kept: history.slice(split.index).map((m) => m.message) as WireMessage[],
    firstRequest: base.firstRequest,
  }
  const compactor = deps.compactor ?? defaultCompactor
  let output: { summary: string; form: CompactionDraft['form'] }
  try {
    output = await compactor.summarise(compactorInput, ctx)
    if (compactor !== defaultCompactor && output.form !== 'standalone' && output.form !== 'cut' && output.form !== 'upto') output = { ...output, form: 'extension' }
  } catch (err) {
    if (signal.aborted || (err instanceof SummaryCallError && err.cancelled)) return { status: 'cancelled', passes, costUsd: costOf() }
    const message = err instanceof Error ? err.message : String(err)
    if (compactor === defaultCompactor) return { status: 'failed', reason: message, passes, costUsd: costOf() }
    notes.push(`The compactor ${compactor.name} failed (${message}); the built-in compactor ran instead.`)
    deps.onProgress?.({ stage: 'extension_failed', extension: compactor.name, message })
    try {
      output = await defaultCompactor.summarise(compactorInput, ctx)
    } catch (again) {
      if (signal.aborted || (again instanceof SummaryCallError && again.cancelled)) return { status: 'cancelled', passes, costUsd: costOf() }
      return { status: 'failed', reason: again instanceof Error ? again.message : String(again), passes, costUsd: costOf() }
    }
  }
  if (signal.aborted) return { status: 'cancelled', passes, costUsd: costOf() }
  if (output.summary.trim() === '') return { status: 'failed', reason: 'The compactor returned an empty summary.', passes, costUsd: costOf() }
  const replaced = {
    fromEntryId: (summarisedEntries[0]?.id ?? null) as EntryId | null,
    toEntryId: (summarisedEntries.at(-1)?.id ?? null) as EntryId | null,
    entries: summarisedEntries.length,
    messages: split.index,
    estimatedTokens: messagesTokens(wire.slice(0, split.index)),
  }
  return { status: 'draft', draft: { ...base, stage: 'summary', summary: output.summary, form: output.form, passes, costUsd: costOf(), replaced, notes } }
}
