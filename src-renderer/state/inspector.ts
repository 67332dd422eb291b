/**
 * The inspector's state: which passes are listed, which one is selected (shared with the chat: selecting a message
 * selects the pass that produced it, and the chat highlights the message of `selectedPassId`), the view, and the
 * layout, remembered in localStorage.
 *
 * Pass bodies are never kept here: the views ask `pass.get` for the pass they show (features/inspector/data).
 */
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import type { LivePassView, PassSummaryView } from '../../src-preload/contract'
import { liveDeltaApplied, liveListed, livePassStarted, liveStoredIn, liveSummaryStarted, liveSummaryStreamed, newestMainSeq, newestSeqOf, type LivePass } from '../features/inspector/model/live'
import { readAttribution } from '../features/inspector/model/attribution'

/** What `compaction.progressed` says that the live row uses (contract.ts). */
export interface CompactionProgress {
  readonly sessionId: string
  readonly stage: string
  readonly stream?: number
  readonly text?: string
  readonly textOffset?: number
  readonly outputChars?: number
  readonly thinkingChars?: number
}

export type InspectorView = 'request' | 'response' | 'diff'
export type RequestMode = 'pretty' | 'raw'
export type PassScope = 'session' | 'project'
export type Dock = 'right' | 'bottom'

/** A pass in the list, with its session's title when the list spans the project. */
export interface ListedPass extends PassSummaryView {
  readonly sessionTitle?: string
}

export interface InspectorLayout {
  readonly dock: Dock
  /** Width of the pane docked beside the chat, in px. */
  readonly paneSize: number
  /** Height of the pane docked below the chat, in px. */
  readonly paneHeight: number
  readonly collapsed: boolean
  /** Height of the passes list above the views, in px. */
  readonly listHeight: number
  /** The context map above the request: hidden, it stays hidden (on a short window it takes the request's room). */
  readonly contextMap: boolean
}

/** Sizes the pane never goes below or above, so a remembered layout always leaves room for the chat. */
export const PANE_MIN_PX = 320
/** Docked below, the pane may be lower than it may be narrow beside: on a 700 px window both must fit. */
export const PANE_MIN_HEIGHT_PX = 200
export const PANE_MAX_FRACTION = 0.8
/**
 * Room the chat keeps beside (or above) the inspector, so a wide pane never crushes the conversation: above it,
 * the header and the message box take about 170 px, and a few messages must still show.
 */
export const CHAT_MIN_PX = 420
export const CHAT_MIN_HEIGHT_PX = 340
/** The passes list's least height: its column heads (22 px) and three whole rows of 26 px, with its border. */
export const LIST_MIN_PX = 22 + 3 * 26 + 2
/**
 * The least the chat is left beside the pane when the space is short of CHAT_MIN_PX: its message box then still holds
 * a line of about 35 characters beside Send.
 */
export const CHAT_BESIDE_MIN_PX = 340
/**
 * Docked beside the chat in a space narrower than this, the chat and the pane cannot both keep their least width:
 * one shows at a time, the other as a bar at its edge that brings it back (decision 0048). An 800 px window leaves
 * about 600 px; a 900 px one about 675.
 */
export const ONE_AT_A_TIME_BELOW_PX = CHAT_BESIDE_MIN_PX + PANE_MIN_PX
/** The inspector's own header (its title, scope and dock buttons). */
export const PANE_HEADER_PX = 37
/**
 * The least height of an inspector docked below that is still of use: its header, the passes list at its least and
 * the list's 5 px splitter, the selected pass's tabs and line (32 px on one line), and 120 px of the request's bytes,
 * the least its editor is drawn (the view scrolls past its controls to them). 296 px.
 */
export const PANE_USEFUL_HEIGHT_PX = PANE_HEADER_PX + LIST_MIN_PX + 5 + 32 + 120
/**
 * Docked below the chat in a space shorter than this, the chat's least height leaves the inspector too little to
 * read a pass in (in an 800×600 window, about 10 px of the request): one shows at a time, as beside in a narrow space
 * (decision 0048). 636 px: an 800×600 window leaves about 556; a 700 px tall one 656, a 1024×768 one 724.
 */
export const ONE_AT_A_TIME_SHORTER_THAN_PX = CHAT_MIN_HEIGHT_PX + PANE_USEFUL_HEIGHT_PX

/** What the session's workspace shows: the chat and the inspector side by side (or stacked), or one of them alone. */
export type WorkspaceShows = 'both' | 'chat' | 'inspector'

interface InspectorState {
  readonly sessionId: string | null
  readonly scope: PassScope
  readonly passes: ReadonlyArray<ListedPass>
  readonly loading: boolean
  readonly error: string | null
  /**
   * The pass in flight in the shown session, from `pass.started` until `pass.completed`; or a compaction's summary
   * request, from its `summary_started` progress until `pass.completed`. Never both: a compaction runs between passes.
   */
  readonly live: LivePass | null
  readonly selectedPassId: string | null
  /**
   * The user chose the selected pass (a row, an answer in the chat, Alt+↓, a command): the chat brings its message
   * into view. One the inspector chose itself (the newest pass a session opens on, the next one while following) does
   * not move the chat from where the user is; whichever of the chat and the list loads first after a reload.
   */
  readonly chosenByUser: boolean
  /** The live row is selected (it has no id until it is stored). */
  readonly liveSelected: boolean
  /**
   * The user follows the newest pass: a new pass is selected as it starts, and a list read again moves the selection
   * to its newest pass. Kept as a mode, not read from "the selection is the last row": a pass stored while the
   * inspector was not shown (a compaction from its view) would otherwise end the following unseen.
   */
  readonly following: boolean
  /**
   * The passes in flight in sessions not shown, by session: coming back to a running session shows its live row with
   * what streamed meanwhile, rather than nothing until its next pass starts.
   */
  readonly liveElsewhere: Readonly<Record<string, LivePass>>
  /** The pass the diff compares against; null means the one before the selected pass. */
  readonly compareToPassId: string | null
  readonly view: InspectorView
  readonly requestMode: RequestMode
  readonly layout: InspectorLayout
  /** The width of the space the chat and the inspector share, as last measured; null before it is. */
  readonly workspaceWidth: number | null
  /** Its height, as last measured; null before it is. */
  readonly workspaceHeight: number | null
  /** Which of the two shows when only one fits (decision 0048); not remembered: a narrow window opens on the chat. */
  readonly aloneShown: 'chat' | 'inspector'
  /** A file the user asked to open from a provenance label; the Files view opens it and calls fileOpened(). */
  readonly fileRequest: { readonly path: string; readonly at: number } | null

  sessionShown(sessionId: string | null): void
  scopeChosen(scope: PassScope): void
  passesLoading(): void
  passesLoaded(sessionId: string, passes: ReadonlyArray<ListedPass>): void
  passesFailed(message: string): void
  /** Selects a pass (from the list, the chat, or a link); null clears the selection. */
  passSelected(passId: string | null): void
  liveSelectedChosen(): void
  passStarted(e: { sessionId: string; passNumber: number; model: string }): void
  /**
   * The pass in flight as the host has it (`pass.live`), read after the list: a window that opens or reloads in the
   * middle of a pass shows its live row at once, with what streamed so far, instead of from the next pass on.
   */
  liveSeeded(sessionId: string, snapshot: LivePassView | null, now: number): void
  streamDeltaReceived(e: { sessionId: string; events: ReadonlyArray<unknown> }): void
  /**
   * A pass stored. One of another session is added to the list only when the list shows it (`listedHere`: the whole
   * project's list, and the pass's session is of that project); it never moves the selection, which follows the
   * session shown.
   */
  passCompleted(e: { sessionId: string; pass: PassSummaryView }, listedHere?: boolean): void
  /**
   * A compaction's progress (`compaction.progressed`): `summary_started` makes the summary request the live pass,
   * `summary_streaming` fills it in; the other stages say nothing about a request in flight. `model` is the session's
   * (the summary is asked of it; the progress does not say), empty when the window does not know it.
   */
  compactionProgressed(e: CompactionProgress, model: string): void
  /**
   * A compaction's summary request in flight as `compaction.list` gives it, read after the list when no main pass is
   * in flight: a window that opens in the middle of it shows its row at once, with the summary so far.
   */
  summarySeeded(sessionId: string, live: LiveSummarySnapshot, model: string, now: number): void
  /** The connection came back: events of sessions not shown may have been missed, so their live passes are dropped. */
  reconnected(): void
  compareChosen(passId: string | null): void
  viewChosen(view: InspectorView): void
  requestModeChosen(mode: RequestMode): void
  paneResized(size: number): void
  listResized(height: number): void
  /**
   * Shows the inspector or hides it. Where only one pane fits, it switches between the inspector and the chat
   * instead, and leaves the split the user chose as it was, for when the window is wide again.
   */
  collapseToggled(): void
  /** The space the chat and the inspector share was measured (the window or the sidebar changed). */
  workspaceMeasured(width: number, height: number): void
  /** The chat is wanted (its bar pressed, the message box asked for): where only one pane fits, it is the one. */
  chatShown(): void
  dockChosen(dock: Dock): void
  contextMapToggled(): void
  fileOpenRequested(path: string): void
  fileOpened(): void
}

const DEFAULT_LAYOUT: InspectorLayout = { dock: 'right', paneSize: 640, paneHeight: 420, collapsed: false, listHeight: 180, contextMap: true }

type WorkspaceSize = Pick<InspectorState, 'layout' | 'workspaceWidth' | 'workspaceHeight'>

/**
 * Whether the chat and the inspector are too many for the space they share (decision 0048): beside it, too narrow
 * for both; below it, too short.
 */
function oneAtATime(s: WorkspaceSize): boolean {
  if (s.layout.dock === 'right') return s.workspaceWidth !== null && s.workspaceWidth < ONE_AT_A_TIME_BELOW_PX
  return s.workspaceHeight !== null && s.workspaceHeight < ONE_AT_A_TIME_SHORTER_THAN_PX
}

/** What the workspace shows now: both panes, or, where only one fits, the chat or the inspector alone. */
export function selectWorkspaceShows(s: WorkspaceSize & Pick<InspectorState, 'aloneShown'>): WorkspaceShows {
  if (!oneAtATime(s)) return 'both'
  return s.aloneShown === 'inspector' && !s.layout.collapsed ? 'inspector' : 'chat'
}

/** Whether the inspector is out of sight: collapsed, or the chat showing alone in its place. */
export const selectInspectorHidden = (s: WorkspaceSize & Pick<InspectorState, 'aloneShown'>): boolean => s.layout.collapsed || selectWorkspaceShows(s) === 'chat'

/** The newest pass of the session shown: in the whole project's list the last row may be another session's. */
function newestOfSession(passes: ReadonlyArray<ListedPass>, sessionId: string | null): ListedPass | undefined {
  for (let i = passes.length - 1; i >= 0; i--) if (passes[i]!.sessionId === sessionId) return passes[i]
  return undefined
}

/**
 * A stored pass put where the list's order (by when each was queued, as `loadPasses` sorts it) has it: two sessions
 * running at once store their passes out of that order, and the list reads the same before and after a reload.
 */
function inQueueOrder(passes: ReadonlyArray<ListedPass>, pass: ListedPass): ListedPass[] {
  let at = passes.length
  while (at > 0 && (passes[at - 1]!.queuedAt > pass.queuedAt || (passes[at - 1]!.queuedAt === pass.queuedAt && passes[at - 1]!.seq > pass.seq))) at--
  return [...passes.slice(0, at), pass, ...passes.slice(at)]
}

export const useInspectorStore = create<InspectorState>()(
  persist(
    (set, get) => ({
      sessionId: null,
      scope: 'session',
      passes: [],
      loading: false,
      error: null,
      live: null,
      selectedPassId: null,
      chosenByUser: false,
      liveSelected: false,
      following: true,
      liveElsewhere: {},
      compareToPassId: null,
      view: 'request',
      requestMode: 'pretty',
      layout: DEFAULT_LAYOUT,
      workspaceWidth: null,
      workspaceHeight: null,
      aloneShown: 'chat',
      fileRequest: null,

      sessionShown: (sessionId) =>
        set((s) => {
          if (s.sessionId === sessionId) return {}
          // The pass in flight goes with its session and comes back with it; a session opens following its newest pass.
          const { [sessionId ?? '']: live = null, ...others } = s.liveElsewhere
          const liveElsewhere = s.live && s.sessionId !== null ? { ...others, [s.sessionId]: s.live } : others
          return { sessionId, passes: [], live, liveElsewhere, selectedPassId: null, chosenByUser: false, liveSelected: live !== null, following: true, compareToPassId: null, error: null }
        }),
      scopeChosen: (scope) => set({ scope }),
      passesLoading: () => set({ loading: true, error: null }),
      passesLoaded: (sessionId, passes) =>
        set((s) => {
          if (s.sessionId !== sessionId) return {}
          // A live pass the list already holds ended unseen (pass.completed came while nothing listened): its row
          // goes, and a user who was watching it is shown the newest stored pass instead.
          const ended = s.live !== null && liveStoredIn(s.live, passes)
          const live = s.live && !ended ? liveListed(s.live, passes) : null
          const liveSelected = live !== null && s.liveSelected
          // A user following the newest pass is moved to it (passes may have been stored while nothing listened); one
          // looking at an older pass stays on it while it is listed.
          const keep = !s.following && !(ended && s.liveSelected) && s.selectedPassId !== null && passes.some((p) => p.id === s.selectedPassId)
          // Opening a session shows its newest pass of that session.
          const newest = newestOfSession(passes, sessionId) ?? passes.at(-1)
          return { passes, loading: false, live, liveSelected, following: !keep, ...(keep ? {} : { selectedPassId: newest?.id ?? null, chosenByUser: false }) }
        }),
      passesFailed: (message) => set({ loading: false, error: message }),
      // Choosing the last row (End, or the newest answer in the chat) is following it; choosing any other is not.
      passSelected: (passId) =>
        set((s) => ({ selectedPassId: passId, chosenByUser: true, liveSelected: false, following: passId === null || (s.live === null && passId === newestOfSession(s.passes, s.sessionId)?.id) })),
      liveSelectedChosen: () => set((s) => (s.live ? { liveSelected: true, following: true } : {})),
      passStarted: (e) =>
        set((s) => {
          // A session not shown: its list is not here to say which passes were stored before this one.
          if (e.sessionId !== s.sessionId) return { liveElsewhere: { ...s.liveElsewhere, [e.sessionId]: livePassStarted(e.sessionId, e.passNumber, e.model, Date.now(), null) } }
          // While the list loads it does not say yet which passes were stored before this one.
          const listedSeq = s.loading ? null : newestMainSeq(s.passes, e.sessionId)
          return { live: livePassStarted(e.sessionId, e.passNumber, e.model, Date.now(), listedSeq), liveSelected: s.following }
        }),
      liveSeeded: (sessionId, snapshot, now) =>
        set((s) => {
          if (sessionId !== s.sessionId || snapshot === null) return {}
          const started = livePassStarted(sessionId, snapshot.passNumber, snapshot.model, snapshot.startedAt, newestMainSeq(s.passes, sessionId))
          const live = { ...liveDeltaApplied(started, snapshot.events, now), firstDeltaAt: snapshot.firstDeltaAt }
          return { live, liveSelected: s.live ? s.liveSelected : s.following }
        }),
      streamDeltaReceived: (e) =>
        set((s) => {
          // Stream events are a main pass's: a summary request's text comes as the compaction's progress.
          if (s.live?.kind === 'main' && e.sessionId === s.live.sessionId) return { live: liveDeltaApplied(s.live, e.events, Date.now()) }
          const elsewhere = s.liveElsewhere[e.sessionId]
          return elsewhere?.kind === 'main' ? { liveElsewhere: { ...s.liveElsewhere, [e.sessionId]: liveDeltaApplied(elsewhere, e.events, Date.now()) } } : {}
        }),
      passCompleted: (e, listedHere = false) =>
        set((s) => {
          const title = s.passes.find((p) => p.sessionId === e.sessionId)?.sessionTitle
          const listed: ListedPass = title === undefined ? e.pass : { ...e.pass, sessionTitle: title }
          const known = s.passes.some((p) => p.id === e.pass.id)
          // Each list in the order a read of it gives: a session's by its passes' numbers, the project's by queue time.
          const passes = known ? s.passes.map((p) => (p.id === e.pass.id ? listed : p)) : s.scope === 'project' ? inQueueOrder(s.passes, listed) : [...s.passes, listed]
          if (e.sessionId !== s.sessionId) {
            const { [e.sessionId]: _ended, ...liveElsewhere } = s.liveElsewhere
            return { ...(e.sessionId in s.liveElsewhere ? { liveElsewhere } : {}), ...(listedHere ? { passes } : {}) }
          }
          // A pass that arrives without having been live (a compaction's summary, a pre-warm) is followed too.
          const follow = s.liveSelected || (!known && s.following)
          return { passes, live: null, liveSelected: false, ...(follow ? { selectedPassId: e.pass.id, chosenByUser: false } : {}) }
        }),
      compactionProgressed: (e, model) =>
        set((s) => {
          if (e.stage === 'summary_started') {
            const m = modelOf(s.passes, e.sessionId, model)
            if (e.sessionId !== s.sessionId) return { liveElsewhere: { ...s.liveElsewhere, [e.sessionId]: liveSummaryStarted(e.sessionId, m, Date.now(), null) } }
            const listedSeq = s.loading ? null : newestSeqOf(s.passes, e.sessionId, 'summary')
            return { live: liveSummaryStarted(e.sessionId, m, Date.now(), listedSeq), liveSelected: s.following }
          }
          if (e.stage !== 'summary_streaming') return {}
          // Only onto a summary request's row: a progress whose start this window missed has no row to fill.
          if (s.live?.kind === 'summary' && e.sessionId === s.live.sessionId) return { live: liveSummaryStreamed(s.live, e, Date.now()) }
          const elsewhere = s.liveElsewhere[e.sessionId]
          return elsewhere?.kind === 'summary' ? { liveElsewhere: { ...s.liveElsewhere, [e.sessionId]: liveSummaryStreamed(elsewhere, e, Date.now()) } } : {}
        }),
      summarySeeded: (sessionId, snapshot, model, now) =>
        set((s) => {
          if (sessionId !== s.sessionId || s.live !== null) return {}
          const m = modelOf(s.passes, sessionId, model)
          // Started when the compaction did: its first stage (trimming) takes milliseconds.
          const started = liveSummaryStarted(sessionId, m, snapshot.startedAt, newestSeqOf(s.passes, sessionId, 'summary'))
          const sofar = snapshot.textEnd > 0 || snapshot.outputChars > 0 || snapshot.thinkingChars > 0
          const live = sofar ? liveSummaryStreamed(started, { stream: snapshot.stream, text: snapshot.text, textOffset: snapshot.textEnd - snapshot.text.length, outputChars: snapshot.outputChars, thinkingChars: snapshot.thinkingChars }, now) : started
          return { live, liveSelected: s.following }
        }),
      reconnected: () => set({ liveElsewhere: {} }),
      compareChosen: (passId) => set({ compareToPassId: passId }),
      viewChosen: (view) => set({ view }),
      requestModeChosen: (requestMode) => set({ requestMode }),
      paneResized: (size) =>
        set((s) => {
          const px = Math.max(s.layout.dock === 'right' ? PANE_MIN_PX : PANE_MIN_HEIGHT_PX, Math.round(size))
          return { layout: s.layout.dock === 'right' ? { ...s.layout, paneSize: px } : { ...s.layout, paneHeight: px } }
        }),
      listResized: (height) => set((s) => ({ layout: { ...s.layout, listHeight: Math.max(LIST_MIN_PX, Math.round(height)) } })),
      collapseToggled: () =>
        set((s) => {
          if (!oneAtATime(s)) return { layout: { ...s.layout, collapsed: !s.layout.collapsed } }
          // The bar of a collapsed inspector asks to see it: it shows, and stays shown when the window grows.
          if (s.layout.collapsed) return { layout: { ...s.layout, collapsed: false }, aloneShown: 'inspector' }
          return { aloneShown: s.aloneShown === 'chat' ? 'inspector' : 'chat' }
        }),
      workspaceMeasured: (width, height) =>
        set((s) => {
          if (s.workspaceWidth === width && s.workspaceHeight === height) return {}
          const measured = { workspaceWidth: width, workspaceHeight: height }
          // Narrowed (or made short) from a split: the chat, what the user was typing in, is the pane that stays.
          const narrowed = !oneAtATime(s) && oneAtATime({ ...s, ...measured })
          return narrowed ? { ...measured, aloneShown: 'chat' } : measured
        }),
      chatShown: () => (get().aloneShown !== 'chat' ? set({ aloneShown: 'chat' }) : undefined),
      dockChosen: (dock) =>
        set((s) => {
          const layout = { ...s.layout, dock }
          // Docked where only one fits (below in a short window, beside in a narrow one): the inspector is what the
          // user is arranging (its Dock button, which keeps the keyboard, or the palette's command), so it stays.
          const split = !oneAtATime(s) && oneAtATime({ ...s, layout })
          return split ? { layout, aloneShown: 'inspector' } : { layout }
        }),
      contextMapToggled: () => set((s) => ({ layout: { ...s.layout, contextMap: !s.layout.contextMap } })),
      fileOpenRequested: (path) => set({ fileRequest: { path, at: Date.now() } }),
      fileOpened: () => (get().fileRequest ? set({ fileRequest: null }) : undefined),
    }),
    {
      name: 'loupe.inspector',
      version: 1,
      partialize: (s) => ({ layout: s.layout, view: s.view, requestMode: s.requestMode, scope: s.scope }),
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<Pick<InspectorState, 'layout' | 'view' | 'requestMode' | 'scope'>>
        return { ...current, ...p, layout: { ...DEFAULT_LAYOUT, ...(p.layout ?? {}) } }
      },
    },
  ),
)

/** The pass the diff compares the selected one against: the chosen one, or the one before it in the list. */
export function selectComparePassId(s: Pick<InspectorState, 'passes' | 'selectedPassId' | 'compareToPassId'>): string | null {
  if (s.compareToPassId && s.compareToPassId !== s.selectedPassId) return s.compareToPassId
  const index = s.passes.findIndex((p) => p.id === s.selectedPassId)
  if (index <= 0) return null
  const selected = s.passes[index]!
  // In the project-wide list, "previous" means the previous pass of the same session; and one that got a response:
  // a retry is compared with what the cache last saw, not with the request that failed (the list offers that too).
  // And a pass of the conversation: a compaction's summary request or a pre-warm is a side request (its copy of the
  // conversation trimmed, an instruction or a placeholder after it), so a pass is compared with what the conversation
  // sent before it, as its cache attribution is.
  let failed: string | null = null
  for (let i = index - 1; i >= 0; i--) {
    const p = s.passes[i]!
    if (p.sessionId !== selected.sessionId || p.kind === 'summary' || p.kind === 'keep_warm') continue
    if (!gotNoResponse(p)) return p.id
    failed ??= p.id
  }
  return failed
}

/** A pass whose request got no response (its attribution says so; before it is attributed, failed without usage). */
function gotNoResponse(p: PassSummaryView): boolean {
  const attribution = readAttribution(p.attribution)
  return attribution ? attribution.noResponse : p.status === 'failed' && p.usage === null
}

/**
 * The model a summary request is asked of: the session's, as the window knows it (`told`); the compaction's progress
 * does not name it, so else the session's newest listed pass's.
 */
function modelOf(passes: ReadonlyArray<ListedPass>, sessionId: string, told: string): string {
  return told || ([...passes].reverse().find((p) => p.sessionId === sessionId)?.model ?? '')
}

/** What summarySeeded reads of `compaction.list`'s `live`. */
export interface LiveSummarySnapshot {
  readonly startedAt: number
  readonly stream: number
  readonly text: string
  readonly textEnd: number
  readonly outputChars: number
  readonly thinkingChars: number
}
