/**
 * The compaction view's state, per session: the checkpoints with their summary passes (`compaction.list`), the dry
 * runs waiting to be applied or discarded, the pins, and the compaction in flight (from the `compaction.*` events:
 * stage, the summary's text as it forms, elapsed). Which card is open is shared by the whole view.
 */
import { create } from 'zustand'
import { appendSummaryPiece, startedLiveCompaction, type LiveCompaction } from '../../src-preload/summary-stream'
import { LIVE_SUMMARY_MAX_CHARS, type EntryView, type EventPayload, type PassSummaryView, type RequestOutput } from '../../src-preload/contract'
import { focusAfterCheckpoints } from '../features/compaction/model/focus'
import { outcomeLevel, type OutcomeLevel } from '../features/compaction/model/outcome-level'

export type CheckpointRecord = RequestOutput<'compaction.list'>['checkpoints'][number]
export type DraftView = RequestOutput<'compaction.list'>['drafts'][number]
export type PinView = RequestOutput<'pin.list'>[number]

/** The compaction in flight, as `compaction.list` gives it to a window that opens in its middle and as the events keep it. */
export type { LiveCompaction }

/** The forming summary is kept up to this many characters, its newest part (the view scrolls to the end). */
export const LIVE_TEXT_MAX_CHARS = LIVE_SUMMARY_MAX_CHARS

/**
 * A checkpoint's sizes as `compaction.list` gives them before its first pass has run (src-main's checkpointContext):
 * before as the checkpoint measured it, after as its estimate brought to the real count's scale. For the checkpoint
 * an event brings, until the list is read again.
 */
export function provisionalContext(checkpoint: unknown): CheckpointRecord['context'] {
  const c = (typeof checkpoint === 'object' && checkpoint !== null ? checkpoint : {}) as { tokens?: { before?: { real?: number | null; estimated?: number }; after?: { estimated?: number } } }
  const real = c.tokens?.before?.real ?? null
  const estimatedBefore = c.tokens?.before?.estimated ?? 0
  const after = onRealScale(c.tokens?.after?.estimated ?? 0, real, estimatedBefore)
  return { before: { tokens: real ?? estimatedBefore, measured: real !== null, passSeq: null }, after: { tokens: after, measured: false, passSeq: null, addedSince: 0 } }
}

/** An estimate on the scale of the real count it was set against, as the engine's `calibrate` does. */
export function onRealScale(estimate: number, real: number | null, estimatedBefore: number): number {
  return real === null || estimatedBefore <= 0 ? estimate : Math.round((estimate * real) / estimatedBefore)
}

/** The live compaction with one `summary_streaming` progress applied: its text appended in order, bounded. */
export function withSummaryText(live: LiveCompaction, p: { stream?: number; text?: string; textOffset?: number }): LiveCompaction {
  if (typeof p.text !== 'string' || typeof p.textOffset !== 'number') return live
  return appendSummaryPiece(live, { stream: typeof p.stream === 'number' ? p.stream : live.stream, text: p.text, textOffset: p.textOffset }, LIVE_TEXT_MAX_CHARS)
}

/** The live compaction after one `compaction.progressed` event: stage, sizes, and the summary's text. */
export function withProgress(current: LiveCompaction, e: EventPayload<'compaction.progressed'>): LiveCompaction {
  const p = e as Record<string, unknown>
  // A new summary request (the standalone one after a summary that called a tool) counts from nothing.
  const live = e.stage === 'summary_started' ? { ...current, outputChars: 0, outputTokens: 0, thinkingChars: 0 } : withSummaryText(current, e)
  return {
    ...live,
    stage: e.stage,
    outputChars: typeof e.outputChars === 'number' ? e.outputChars : live.outputChars,
    outputTokens: typeof e.outputTokens === 'number' ? e.outputTokens : live.outputTokens,
    thinkingChars: typeof e.thinkingChars === 'number' ? e.thinkingChars : live.thinkingChars,
    trimmed: typeof p.trimmed === 'number' ? p.trimmed : live.trimmed,
    savedTokens: typeof p.savedTokens === 'number' ? p.savedTokens : live.savedTokens,
  }
}

/** An early event applied on a snapshot only when it is newer: it extends the summary's text or starts a new stream. */
function withNewerProgress(live: LiveCompaction, e: EventPayload<'compaction.progressed'>): LiveCompaction {
  if (e.stage !== 'summary_streaming' || typeof e.text !== 'string' || typeof e.textOffset !== 'number') return live
  const newer = (e.stream ?? live.stream) > live.stream || (e.stream === live.stream && e.textOffset + e.text.length > live.textEnd)
  return newer ? withProgress(live, e) : live
}

/** Progress events kept for a compaction this window has not seen start, until its snapshot arrives. */
const EARLY_PROGRESS_MAX = 50
const ENDED_KEPT = 8

const endedWith = (s: { readonly ended: ReadonlyArray<string> }, compactionId: string): ReadonlyArray<string> => [...s.ended.filter((id) => id !== compactionId), compactionId].slice(-ENDED_KEPT)

export interface SessionCompactions {
  readonly loaded: boolean
  readonly checkpoints: ReadonlyArray<CheckpointRecord>
  readonly drafts: ReadonlyArray<DraftView>
  readonly pins: ReadonlyArray<PinView>
  readonly live: LiveCompaction | null
  /** Progress that arrived before this window knew of the compaction (see compactionProgressed). */
  readonly early: ReadonlyArray<EventPayload<'compaction.progressed'>>
  /**
   * The newest compactions this window heard end (drafted, applied or failed): a compaction.list snapshot answered
   * before such an end, and read after it, must not show it running again.
   */
  readonly ended: ReadonlyArray<string>
  /** The last compaction that did not apply, and why (failed, cancelled, refused, stale, nothing to compact). */
  readonly lastFailure: LastFailure | null
  readonly error: string | null
  /**
   * The view's focus field (docs/compaction.md "The focus field"): kept here, not in the view, so that a dry run the
   * user goes away from (to the chat, and back) still shows the focus it was run with until it is applied. It
   * empties when a checkpoint with its focus is made, heard here whether the view is open or not.
   */
  readonly focus: string
}

/**
 * A compaction that made no checkpoint. `level` says how it is shown (model/outcome-level.ts): a `note` (nothing to
 * compact yet) is news about the conversation as it was, so once the Compaction view has shown it (`shown`)
 * it goes when the user leaves the view or the session (`shownNotesCleared`); an error stays until the session moves
 * on. Both go when a turn or a compaction starts.
 */
export interface LastFailure {
  readonly compactionId: string
  readonly reason: string
  readonly message: string
  readonly level: OutcomeLevel
  readonly shown: boolean
}

const EMPTY: SessionCompactions = { loaded: false, checkpoints: [], drafts: [], pins: [], live: null, early: [], ended: [], lastFailure: null, error: null, focus: '' }

const idsOf = (checkpoints: ReadonlyArray<CheckpointRecord>): Set<string> => new Set(checkpoints.map((c) => c.checkpoint.id))

/**
 * The field when the list is read: on the first read of a window that has typed nothing, the focus of the newest dry
 * run (the card the view opens) when it is still waiting; after that, emptied if a checkpoint made since carries its
 * text. An out-of-date dry run gives nothing: it can no longer be applied, so its focus would only send a paid summary
 * with a focus the user did not type this time (its card says what it was). A dry run older than a checkpoint is
 * always out of date, the checkpoint being an entry the model sees (engine/compaction/checkpoint.ts draftStale).
 */
function focusOnList(s: SessionCompactions, list: RequestOutput<'compaction.list'>): string {
  if (!s.loaded) return s.focus === '' ? waitingFocus(list.drafts) : s.focus
  return focusAfterCheckpoints(s.focus, idsOf(s.checkpoints), list.checkpoints)
}

function waitingFocus(drafts: ReadonlyArray<DraftView>): string {
  const newest = drafts.at(-1)
  return newest !== undefined && newest.stale !== true ? (newest.focus ?? '') : ''
}

/** What the view shows in its detail pane: a checkpoint (by entry id) or a draft (by draft id). */
export type CompactionSelection = { readonly kind: 'checkpoint'; readonly id: string } | { readonly kind: 'draft'; readonly id: string } | null

interface CompactionState {
  readonly bySession: Readonly<Record<string, SessionCompactions>>
  readonly selection: CompactionSelection
  /**
   * Summaries of dry runs the user is editing in this window, by draft id: kept beside the draft so that, should the
   * draft be applied from another window without them, the text is not lost with the editor (`lostEdit`).
   */
  readonly summaryEdits: Readonly<Record<string, string>>
  readonly lostEdit: { readonly draftId: string; readonly text: string } | null

  listLoaded(sessionId: string, list: RequestOutput<'compaction.list'>, pins: ReadonlyArray<PinView>): void
  loadFailed(sessionId: string, message: string): void
  compactionStarted(e: EventPayload<'compaction.started'>, at: number): void
  compactionProgressed(e: EventPayload<'compaction.progressed'>): void
  /**
   * `shown`: the session is the one the app shows, so its new card opens. A compaction ending in another session (one
   * running there while the user looks at this one's cards) leaves the open card alone.
   */
  compactionDrafted(e: EventPayload<'compaction.drafted'>, shown: boolean): void
  compactionApplied(e: EventPayload<'compaction.applied'>, shown: boolean): void
  compactionFailed(e: EventPayload<'compaction.failed'>): void
  /** A turn or a compaction started in the session: the last failure spoke of the conversation as it was. */
  runStarted(sessionId: string): void
  /** The Compaction view shows the session's note about compaction `compactionId`. */
  noteShown(sessionId: string, compactionId: string): void
  /** The user left the Compaction view, or its session: every note it has shown has been seen, and goes. */
  shownNotesCleared(): void
  draftDiscarded(sessionId: string, draftId: string): void
  pinsLoaded(sessionId: string, pins: ReadonlyArray<PinView>): void
  selected(selection: CompactionSelection): void
  /** The user's text of a draft's summary; null when it is the model's again. */
  summaryEdited(draftId: string, text: string | null): void
  lostEditDismissed(): void
  /** The user typed in the focus field of the session's view. */
  focusTyped(sessionId: string, text: string): void
}

export const useCompactionStore = create<CompactionState>()((set) => {
  const update = (sessionId: string, fn: (s: SessionCompactions) => Partial<SessionCompactions>) =>
    set((state) => {
      const current = state.bySession[sessionId] ?? EMPTY
      return { bySession: { ...state.bySession, [sessionId]: { ...current, ...fn(current) } } }
    })
  return {
    bySession: {},
    selection: null,
    summaryEdits: {},
    lostEdit: null,
    listLoaded: (sessionId, list, pins) =>
      update(sessionId, (s) => ({
        loaded: true,
        checkpoints: list.checkpoints,
        drafts: list.drafts,
        pins,
        error: null,
        focus: focusOnList(s, list),
        // A window opened (or reloaded) mid-compaction starts from the main process's snapshot, then the progress
        // that arrived before it; the events carry on from there.
        live:
          s.live?.compactionId === list.live?.compactionId
            ? s.live
            : list.live && s.ended.includes(list.live.compactionId)
              ? s.live // the snapshot was taken before this compaction's end, which this window has heard since
              : list.live
              ? s.early.filter((e) => e.compactionId === list.live!.compactionId).reduce(withNewerProgress, { ...list.live } as LiveCompaction)
              : s.live,
        early: [],
      })),
    loadFailed: (sessionId, message) => update(sessionId, () => ({ loaded: true, error: message })),
    compactionStarted: (e, at) =>
      update(e.sessionId, () => ({
        live: startedLiveCompaction(e, at),
        early: [],
        lastFailure: null,
      })),
    compactionProgressed: (e) =>
      update(e.sessionId, (s) => {
        // Progress of a compaction this window has not heard start (it opened or reloaded in its middle, and the
        // snapshot from compaction.list is still on its way): kept, and applied on top of that snapshot.
        if (!s.live || s.live.compactionId !== e.compactionId) return { early: [...s.early.filter((x) => x.compactionId === e.compactionId), e].slice(-EARLY_PROGRESS_MAX) }
        return { live: withProgress(s.live, e) }
      }),
    compactionDrafted: (e, shown) => {
      update(e.sessionId, (s) => ({ live: null, ended: endedWith(s, e.compactionId), drafts: [...s.drafts.filter((d) => d.draftId !== e.draft.draftId), e.draft] }))
      if (shown) set({ selection: { kind: 'draft', id: e.draft.draftId } })
    },
    compactionApplied: (e, shown) => {
      update(e.sessionId, (s) => ({
        live: null,
        ended: endedWith(s, e.compactionId),
        focus: focusAfterCheckpoints(s.focus, idsOf(s.checkpoints), [{ checkpoint: e.checkpoint }]),
        drafts: s.drafts.filter((d) => d.draftId !== e.compactionId),
        checkpoints: s.checkpoints.some((c) => c.checkpoint.id === e.checkpoint.id)
          ? s.checkpoints
          : [...s.checkpoints, { checkpoint: e.checkpoint as EntryView, realTokensAfter: null, context: provisionalContext(e.checkpoint), passes: [] as PassSummaryView[] }],
      }))
      set((s) => {
        const { [e.compactionId]: edit, ...summaryEdits } = s.summaryEdits
        // Applied from another window without this window's edits: they are kept for the user to copy. The host keeps
        // a summary trimmed (engine/compaction/checkpoint.ts), so an edit that ends with a new line is the same text.
        const applied = (e.checkpoint as { summary?: unknown }).summary
        const lost = edit !== undefined && (typeof applied !== 'string' || applied.trim() !== edit.trim())
        return { ...(shown ? { selection: { kind: 'checkpoint' as const, id: e.checkpoint.id } } : {}), summaryEdits, ...(lost ? { lostEdit: { draftId: e.compactionId, text: edit } } : {}) }
      })
    },
    compactionFailed: (e) =>
      update(e.sessionId, (s) => ({
        live: null,
        ended: endedWith(s, e.compactionId),
        lastFailure: { compactionId: e.compactionId, reason: e.reason, message: e.message, level: outcomeLevel(e.reason), shown: false },
      })),
    runStarted: (sessionId) => update(sessionId, (s) => (s.lastFailure === null ? {} : { lastFailure: null })),
    noteShown: (sessionId, compactionId) =>
      update(sessionId, (s) => (s.lastFailure?.level === 'note' && s.lastFailure.compactionId === compactionId && !s.lastFailure.shown ? { lastFailure: { ...s.lastFailure, shown: true } } : {})),
    shownNotesCleared: () =>
      set((state) => {
        const seen = Object.entries(state.bySession).filter(([, s]) => s.lastFailure?.level === 'note' && s.lastFailure.shown)
        if (seen.length === 0) return {}
        return { bySession: { ...state.bySession, ...Object.fromEntries(seen.map(([id, s]) => [id, { ...s, lastFailure: null }])) } }
      }),
    draftDiscarded: (sessionId, draftId) => {
      update(sessionId, (s) => ({ drafts: s.drafts.filter((d) => d.draftId !== draftId) }))
      set((s) => (s.selection?.kind === 'draft' && s.selection.id === draftId ? { selection: null } : {}))
    },
    pinsLoaded: (sessionId, pins) => update(sessionId, () => ({ pins })),
    selected: (selection) => set({ selection }),
    summaryEdited: (draftId, text) =>
      set((s) => {
        const { [draftId]: _, ...rest } = s.summaryEdits
        return { summaryEdits: text === null ? rest : { ...rest, [draftId]: text } }
      }),
    lostEditDismissed: () => set({ lostEdit: null }),
    focusTyped: (sessionId, text) => update(sessionId, () => ({ focus: text })),
  }
})

/**
 * How many edited dry-run summaries this window holds that exist nowhere else, for the leave-page question (decision
 * 0072): the edits to a dry run still listed, waiting or out of date (its text is still the user's, offered to copy),
 * and the edits kept to copy after the dry run was applied elsewhere without them. An edit whose dry run is gone
 * (discarded, here or in another window; a restart of the main process) is shown nowhere, so staying would keep nothing.
 */
export function editedSummaryCount(s: Pick<CompactionState, 'bySession' | 'summaryEdits' | 'lostEdit'>): number {
  const listed = new Set(Object.values(s.bySession).flatMap((session) => session.drafts.map((d) => d.draftId)))
  return Object.keys(s.summaryEdits).filter((draftId) => listed.has(draftId)).length + (s.lostEdit === null ? 0 : 1)
}

export function selectCompactions(sessionId: string) {
  return (s: CompactionState): SessionCompactions => s.bySession[sessionId] ?? EMPTY
}
