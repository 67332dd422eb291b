/**
 * The chat's state, per session: the entries as the store has them, what is streaming right now, approvals
 * waiting for the user, and whether a turn is running. Actions are named as the events that cause them.
 */
import { create } from 'zustand'
import type { ApprovalRequestView, EntryView, PermissionModeName, SessionStateView } from '../../src-preload/contract'
import { retryNote } from '../ui/retry-note'

export interface StreamingBlock {
  readonly index: number
  /** `retry`: not a block of the answer but a line saying why what streamed was dropped and the request sent again. */
  readonly kind: 'text' | 'thinking' | 'redacted_thinking' | 'tool_use' | 'retry'
  readonly text: string
  readonly toolName?: string
}

export interface PendingApproval {
  readonly toolUseId: string
  readonly request: ApprovalRequestView
  /** Asked again while it waited: its file changed on disk, and the preview shows the change as it would be now. */
  readonly refreshed?: boolean
  /** The preview it was first asked with (JSON): a file changed back shows that again, and is not "changed". */
  readonly firstPreview?: string
  /**
   * Asked while this window was open (`approval.requested`), not read with the session (`session.get`, as a reload
   * or a reconnection reads it): only a card asked live takes the keyboard (Approval.tsx).
   */
  readonly askedLive?: true
}

export interface SessionChat {
  readonly loaded: boolean
  /** The session's entries from some position to the newest, in order: the newest first, earlier ones as shown (decision 0039). */
  readonly entries: ReadonlyArray<EntryView>
  /** How many entries come before the first in `entries` (positions 1 … earlier), not read yet. */
  readonly earlier: number
  /** Entries before those read that the cache timeline marks (checkpoints, context edits, model switches, files applied). */
  readonly landmarks: ReadonlyArray<EntryView>
  /** Positions of entries that checkpoints name and that are not read (a summarised range's ends). */
  readonly seqs: Readonly<Record<string, number>>
  readonly streaming: ReadonlyArray<StreamingBlock>
  readonly running: boolean
  readonly mode: PermissionModeName
  readonly model: string
  readonly approvals: ReadonlyArray<PendingApproval>
  readonly runningTools: ReadonlyArray<string>
  readonly error: string | null
  /**
   * The message whose sending `error` refuses (too long, or refused for its text), trimmed; null when the error is
   * not about the draft. While the draft says something else, the error does not apply and is not shown (ChatPane).
   */
  readonly errorAbout: string | null
  /**
   * What session.list said the session was doing, for a session whose chat is not loaded: a window that opens (or
   * reloads) while a turn runs in the main process has seen none of that turn's events. The turn's next event
   * supersedes it.
   */
  readonly listedActivity: ListedActivity
}

export type ListedActivity = 'running' | 'waiting' | null

const EMPTY: SessionChat = { loaded: false, entries: [], earlier: 0, landmarks: [], seqs: {}, streaming: [], running: false, mode: 'build', model: '', approvals: [], runningTools: [], error: null, errorAbout: null, listedActivity: null }

type StreamEvent = {
  type: string
  index?: number
  kind?: string
  text?: string
  thinking?: string
  partialJson?: string
  toolName?: string
  message?: string
  retry?: number
  retries?: number
}

/** The blocks streaming, with a batch of stream events applied (stream.delta's, or a live pass's so far). */
function withStreamEvents(streaming: ReadonlyArray<StreamingBlock>, events: ReadonlyArray<StreamEvent>): StreamingBlock[] {
  let blocks = [...streaming]
  for (const e of events) {
    // What streamed is not the answer any more: the note takes its place until the next attempt streams.
    if (e.type === 'retrying') {
      blocks = [{ index: -1, kind: 'retry', text: retryNote(e) }]
      continue
    }
    const i = blocks.findIndex((b) => b.index === e.index)
    if (e.type === 'block_started' && e.index !== undefined) {
      const block: StreamingBlock = { index: e.index, kind: (e.kind as StreamingBlock['kind'] | undefined) ?? 'text', text: '', ...(e.toolName ? { toolName: e.toolName } : {}) }
      if (i >= 0) blocks[i] = block
      else blocks.push(block)
    } else if (i >= 0) {
      const add = e.text ?? e.thinking ?? e.partialJson ?? ''
      blocks[i] = { ...blocks[i]!, text: blocks[i]!.text + add }
    }
  }
  return blocks
}

interface ChatState {
  readonly bySession: Readonly<Record<string, SessionChat>>
  sessionLoaded(state: SessionStateView): void
  /** Entries read from before those held (session.entries): they go in front, when they reach up to them. */
  earlierLoaded(sessionId: string, page: { readonly entries: ReadonlyArray<EntryView>; readonly earlier: number; readonly seqs: Readonly<Record<string, number>> }): void
  /** `seqs`: positions of entries that checkpoints among them name (their ranges may start before the entries read). */
  entriesAppended(sessionId: string, entries: ReadonlyArray<EntryView>, seqs?: Readonly<Record<string, number>>): void
  streamed(sessionId: string, events: ReadonlyArray<StreamEvent>): void
  passStarted(sessionId: string): void
  runStarted(sessionId: string): void
  turnEnded(sessionId: string): void
  approvalRequested(sessionId: string, approval: PendingApproval): void
  approvalAnswered(sessionId: string, toolUseId: string): void
  toolStarted(sessionId: string, toolUseId: string): void
  toolFinished(sessionId: string, toolUseId: string): void
  modeChanged(sessionId: string, mode: PermissionModeName): void
  /** The session's model was switched (decision 0021). */
  modelChanged(sessionId: string, model: string): void
  /** `about`: the message the error refuses, when it is about the draft (`errorAbout`). */
  failed(sessionId: string, message: string, about?: string): void
  /**
   * The connection to the host was lost while the session's turn ran: it is no longer shown as running (nothing of it
   * can be heard, and Stop could not reach it), its approvals go (they cannot be answered), and `message` says so.
   * What streamed so far stays on screen until the session is read again.
   */
  connectionLost(sessionId: string, message: string): void
  /** The session was deleted: nothing of it is kept. */
  sessionForgotten(sessionId: string): void
  /** session.list said what each session is doing; kept for the sessions whose chat is not loaded. */
  activityListed(activities: ReadonlyArray<{ sessionId: string; activity: ListedActivity }>): void
}

/**
 * A loaded snapshot with the entries an event brought that are newer than it: the answer to session.get can be
 * taken before an entry is appended and arrive after that entry's event (a mode switched while the chat opened).
 */
function withNewer(snapshot: ReadonlyArray<EntryView>, known: ReadonlyArray<EntryView>): EntryView[] {
  const last = snapshot.reduce((max, e) => Math.max(max, e.seq), -Infinity)
  const ids = new Set(snapshot.map((e) => e.id))
  const newer = known.filter((e) => e.seq > last && !ids.has(e.id))
  return newer.length === 0 ? [...snapshot] : [...snapshot, ...newer].sort((a, b) => a.seq - b.seq)
}

/**
 * A loaded window's entries with the earlier ones this window had read before it (shown earlier entries stay shown
 * when the session is read again): kept when they run up to the window's first without a gap. Entries never change
 * once written, so a position read twice holds the same entry.
 */
function withEarlier(window: ReadonlyArray<EntryView>, earlier: number, known: ReadonlyArray<EntryView>): { entries: ReadonlyArray<EntryView>; earlier: number } {
  const first = window[0]
  if (!first || earlier === 0) return { entries: window, earlier }
  const before = known.filter((e) => e.seq < first.seq)
  const reaches = before.length > 0 && before.at(-1)!.seq === first.seq - 1 && before.at(-1)!.seq - before[0]!.seq === before.length - 1
  return reaches ? { entries: [...before, ...window], earlier: before[0]!.seq - 1 } : { entries: window, earlier }
}

/** A pass or a tool started, or an approval was answered: the turn is running now, no longer waiting for an approval. */
/**
 * What a session is doing, as this store follows it from the contract's events (run.started, approval.requested,
 * turn.ended), or as session.list said for a turn this window saw start before it opened.
 */
export type SessionActivity = 'waiting' | 'running' | null

export function sessionActivity(chat: SessionChat | undefined): SessionActivity {
  if (!chat) return null
  if (chat.approvals.length > 0) return 'waiting'
  if (chat.running) return 'running'
  return chat.listedActivity
}

/** What any of these sessions is doing: an approval waiting before a turn running, as it asks more of the user. */
export function sessionsActivity(s: { readonly bySession: Readonly<Record<string, SessionChat>> }, sessionIds: ReadonlyArray<string>): SessionActivity {
  let found: SessionActivity = null
  for (const id of sessionIds) {
    const activity = sessionActivity(s.bySession[id])
    if (activity === 'waiting') return 'waiting'
    found ??= activity
  }
  return found
}

const stillRunning = (s: SessionChat): ListedActivity => (s.listedActivity ? 'running' : null)

export const useChatStore = create<ChatState>()((set) => {
  const update = (sessionId: string, fn: (s: SessionChat) => Partial<SessionChat>) =>
    set((state) => {
      const current = state.bySession[sessionId] ?? EMPTY
      return { bySession: { ...state.bySession, [sessionId]: { ...current, ...fn(current) } } }
    })
  return {
    bySession: {},
    sessionLoaded: (s) =>
      update(s.session.id, (current) => {
        const held = withEarlier(withNewer(s.entries as EntryView[], current.entries), s.earlier ?? 0, current.entries)
        // The landmarks are those before the window sent; earlier entries kept from before hold some of them already.
        const first = held.entries[0]?.seq ?? Infinity
        return {
          loaded: true,
          ...held,
          landmarks: ((s.landmarks ?? []) as EntryView[]).filter((e) => e.seq < first),
          seqs: { ...current.seqs, ...s.seqs },
          running: s.running,
          mode: s.mode,
          model: s.model,
          approvals: s.pendingApprovals as PendingApproval[],
          runningTools: s.runningTools ?? [],
          // A window opened in the middle of a pass starts from what it streamed so far; stream.delta goes on from there.
          streaming: s.running && s.livePass ? withStreamEvents([], s.livePass.events as StreamEvent[]) : [],
          error: null,
          errorAbout: null,
          listedActivity: null,
        }
      }),
    entriesAppended: (sessionId, entries, seqs) =>
      update(sessionId, (s) => {
        const known = new Set(s.entries.map((e) => e.id))
        const fresh = entries.filter((e) => !known.has(e.id))
        // Once the assistant's entry is stored, what streamed for it is shown from the entry instead.
        const streaming = fresh.some((e) => e.kind === 'assistant_message') ? [] : s.streaming
        const mode = (fresh.filter((e) => e.kind === 'mode_switched').at(-1)?.mode as PermissionModeName | undefined) ?? s.mode
        // A model switched in another window arrives as its entry.
        const model = (fresh.filter((e) => e.kind === 'model_switched').at(-1)?.model as string | undefined) ?? s.model
        return { entries: [...s.entries, ...fresh].sort((a, b) => a.seq - b.seq), streaming, mode, model, ...(seqs ? { seqs: { ...s.seqs, ...seqs } } : {}) }
      }),
    earlierLoaded: (sessionId, page) =>
      update(sessionId, (s) => {
        const first = s.entries[0]
        const last = page.entries.at(-1)
        // Only a page that ends right before the first entry held: an answer to a read overtaken by another is dropped.
        if (!first || !last || last.seq !== first.seq - 1) return {}
        return {
          entries: [...page.entries, ...s.entries],
          earlier: page.earlier,
          // Landmarks now among the entries are no longer before them.
          landmarks: s.landmarks.filter((e) => e.seq < page.entries[0]!.seq),
          seqs: { ...s.seqs, ...page.seqs },
        }
      }),
    streamed: (sessionId, events) => update(sessionId, (s) => ({ streaming: withStreamEvents(s.streaming, events) })),
    passStarted: (sessionId) => update(sessionId, (s) => ({ streaming: [], listedActivity: stillRunning(s) })),
    runStarted: (sessionId) => update(sessionId, () => ({ running: true, error: null, errorAbout: null, listedActivity: null })),
    turnEnded: (sessionId) => update(sessionId, () => ({ running: false, streaming: [], approvals: [], runningTools: [], listedActivity: null })),
    approvalRequested: (sessionId, approval) =>
      update(sessionId, (s) => {
        // Asked again (its preview made again): the card changes where it is, and says why.
        const known = s.approvals.some((a) => a.toolUseId === approval.toolUseId)
        const again = (a: PendingApproval): PendingApproval => {
          const firstPreview = a.firstPreview ?? JSON.stringify(a.request.preview ?? null)
          return { ...approval, askedLive: true, firstPreview, refreshed: JSON.stringify(approval.request.preview ?? null) !== firstPreview }
        }
        const approvals = known ? s.approvals.map((a) => (a.toolUseId === approval.toolUseId ? again(a) : a)) : [...s.approvals, { ...approval, askedLive: true as const }]
        return { approvals, listedActivity: null }
      }),
    approvalAnswered: (sessionId, toolUseId) => update(sessionId, (s) => ({ approvals: s.approvals.filter((a) => a.toolUseId !== toolUseId), listedActivity: stillRunning(s) })),
    toolStarted: (sessionId, id) => update(sessionId, (s) => ({ runningTools: [...s.runningTools, id], listedActivity: stillRunning(s) })),
    toolFinished: (sessionId, id) => update(sessionId, (s) => ({ runningTools: s.runningTools.filter((t) => t !== id) })),
    modeChanged: (sessionId, mode) => update(sessionId, () => ({ mode })),
    modelChanged: (sessionId, model) => update(sessionId, () => ({ model })),
    failed: (sessionId, message, about) => update(sessionId, () => ({ error: message, errorAbout: about ?? null })),
    connectionLost: (sessionId, message) => update(sessionId, (s) => ({ running: false, approvals: [], runningTools: [], listedActivity: null, ...(s.loaded ? { error: message, errorAbout: null } : {}) })),
    activityListed: (activities) =>
      set((state) => {
        const bySession = { ...state.bySession }
        for (const { sessionId, activity } of activities) {
          const current = bySession[sessionId] ?? EMPTY
          if (!current.loaded && current.listedActivity !== activity) bySession[sessionId] = { ...current, listedActivity: activity }
        }
        return { bySession }
      }),
    sessionForgotten: (sessionId) => set((state) => ({ bySession: Object.fromEntries(Object.entries(state.bySession).filter(([id]) => id !== sessionId)) })),
  }
})

export const selectChat = (sessionId: string | null) => (s: ChatState): SessionChat => (sessionId ? (s.bySession[sessionId] ?? EMPTY) : EMPTY)
