import { memo, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react'
import type { EntryView } from '../../../src-preload/contract'
import { useChatStore, type SessionChat } from '../../state/chat'
import { useInspectorStore } from '../../state/inspector'
import { ApprovalPrompt } from './Approval'
import { loadEarlierEntries } from './actions'
import { ENTRIES_BEFORE_ANSWER } from '../../../src-preload/limits'
import { MessageText } from './MessageText'
import { type ConversationSource } from './origin'
import { continuedText, type ContinuedFrom } from './continued'
import { ANSWERS_SELECTOR, drawEntryInPlace } from './ConversationEntry'
import { answerTabStop, entryContext, entryFacts, type EntryContext } from './entry-context'
import { conversationParts, partDrawsSame } from './parts'
import { holdOnScreen } from './hold-place'
import { UserMovesView } from './follow'
import { chatStatus } from './status'
import { grouped } from '../../ui/format'
import './conversation.css'

export interface ConversationProps {
  readonly sessionId: string
  readonly chat: SessionChat
  readonly selectedPassId: string | null
  readonly onSelectPass: (passId: string) => void
  /** What made each pass (ChatPane reads it from the passes listed), so a message is labelled by who wrote it. */
  readonly passSources: ReadonlyMap<string, ConversationSource>
  /** Who made the session's conversation: a session Loupe did not run offers no retry. */
  readonly source: ConversationSource
  /** A session continued from an imported conversation: how many of its first entries came from it, and its model. */
  readonly continued?: ContinuedFrom | null
}



/** Entries drawn when a conversation opens, the newest; earlier ones come in steps of as many, on request. */
export const SHOWN_ENTRIES_STEP = 150

export function Conversation({ sessionId, chat, selectedPassId, onSelectPass, passSources, source, continued = null }: ConversationProps) {
  const inherited = continued?.inherited ?? null
  // Worked out when the entries change, not at every streamed delta: the parts below are memoised on them.
  const facts = useMemo(() => entryFacts(chat.entries, chat.seqs, inherited), [chat.entries, chat.seqs, inherited])
  // A long conversation opens on its newest entries (drawing every one of hundreds took seconds); the rest on request,
  // or when a pass chosen in the inspector is among them. What is shown starts at a position, not an index: earlier
  // entries read from the host go in front of those held (decision 0039).
  const [chosenFromSeq, setChosenFromSeq] = useState<number | null>(null)
  const newestStep = chat.entries[Math.max(0, chat.entries.length - SHOWN_ENTRIES_STEP)]?.seq ?? null
  const fromSeq = chosenFromSeq ?? newestStep
  const shownFrom = fromSeq === null ? 0 : Math.max(0, chat.entries.findIndex((e) => e.seq >= fromSeq))
  const notShown = shownFrom + chat.earlier
  // Fixed once the session has loaded: new entries then add to what is shown.
  useEffect(() => {
    if (chat.loaded && chosenFromSeq === null && newestStep !== null) setChosenFromSeq(newestStep)
  }, [chat.loaded, chosenFromSeq, newestStep])
  const selectedPass = useInspectorStore((s) => (selectedPassId === null ? null : (s.passes.find((p) => p.id === selectedPassId) ?? null)))
  useEffect(() => {
    if (selectedPassId === null) return
    const at = chat.entries.findLastIndex((e) => e.kind === 'assistant_message' && e.passId === selectedPassId)
    if (at >= 0 && at < shownFrom) setChosenFromSeq(chat.entries[Math.max(0, at - ENTRIES_BEFORE_ANSWER)]!.seq)
    // A pass the user chose from before the entries read: the earlier ones are read, from a little before its answer
    // on. (One the inspector chose itself, the newest as the session opens, is not worth reading the session for.)
    const earlierPass = at < 0 && selectedPass?.sessionId === sessionId && chat.earlier > 0 && (chat.entries[0]?.at ?? 0) > selectedPass.queuedAt
    if (earlierPass && useInspectorStore.getState().chosenByUser) void loadEarlierEntries(sessionId, undefined, selectedPass.id)
  }, [selectedPassId, selectedPass, sessionId, chat.entries, chat.earlier, shownFrom])
  // What stays where it was on screen as the earlier entries go in above it (hold-place.ts, decision 0047): after a
  // click, the entry that was first, so the user reads on upwards; from the keyboard, the button itself, which keeps
  // the focus in view with the entries it added just below it.
  const conversation = useRef<HTMLDivElement>(null)
  const held = useRef<{ readonly putBack: () => void; readonly button: HTMLElement | null } | null>(null)
  // The moves below are the user's: what they asked to see, where they keep reading (follow.ts).
  const userMovesView = useContext(UserMovesView)
  useLayoutEffect(() => {
    const step = held.current
    held.current = null
    if (step) userMovesView()
    step?.putBack()
    // The last of them shown, the button goes: the keyboard goes on from the first answer, at the top.
    if (step?.button && !step.button.isConnected) conversation.current?.querySelector<HTMLElement>(ANSWERS_SELECTOR)?.focus()
  }, [fromSeq])
  const showEarlier = (event: MouseEvent<HTMLButtonElement>) => {
    const from = chat.entries[shownFrom]
    if (!from) return
    // A click no pointer made: Enter or Space on the button (or a screen reader's activation).
    const button = event.detail === 0 ? event.currentTarget : null
    const kept = button ?? conversation.current?.querySelector(':scope > .conversation-part > *')
    if (kept) held.current = { putBack: holdOnScreen(kept), button }
    if (shownFrom >= SHOWN_ENTRIES_STEP || chat.earlier === 0) return setChosenFromSeq(chat.entries[Math.max(0, shownFrom - SHOWN_ENTRIES_STEP)]!.seq)
    // Fewer than a step read before what is shown: the earlier entries are read first, then a whole step shown.
    void loadEarlierEntries(sessionId).then(() => {
      const entries = useChatStore.getState().bySession[sessionId]?.entries ?? []
      const at = entries.findIndex((e) => e.seq >= from.seq)
      if (at > 0) setChosenFromSeq(entries[Math.max(0, at - SHOWN_ENTRIES_STEP)]!.seq)
      else held.current = null
    })
  }
  // A pass chosen elsewhere (the inspector's list, Alt+↓) brings its message into view, once drawn; one chosen here
  // is in view. Showing earlier entries does not move the view back to the chosen pass. One the inspector chose
  // itself (the newest pass as the session opens, the next while following) is not the user's: the chat stays where
  // the user is. After a reload in the middle of a turn the list may answer after the chat was drawn, and its newest
  // stored pass is then an answer above the turn in flight: scrolled to, the chat would stop following that turn.
  const scrolledTo = useRef<string | null>(null)
  useEffect(() => {
    if (selectedPassId === null || scrolledTo.current === selectedPassId) return
    const message = [...document.querySelectorAll(`.msg.assistant[data-pass-id="${CSS.escape(selectedPassId)}"]`)].at(-1)
    if (!message) return
    scrolledTo.current = selectedPassId
    if (!useInspectorStore.getState().chosenByUser) return
    // An answer to a message taken back stays folded (the newest pass is chosen by default, and a fold that opened
    // itself would fill the view): the fold's line is brought into view instead, and opens on a click.
    const fold = message.closest('.taken-back')
    const closed = fold?.querySelector('details')?.open === false
    userMovesView()
    ;(closed ? fold!.querySelector('summary')! : message).scrollIntoView({ block: 'nearest' })
  }, [selectedPassId, shownFrom])
  // One Tab stop for the answers (the chosen one, else the newest); Up and Down move between them (AssistantMessage).
  const tabStop = useMemo(() => answerTabStop(chat.entries, shownFrom, facts, selectedPassId), [chat.entries, shownFrom, facts, selectedPassId])
  const canTakeBack = !chat.running && chat.approvals.length === 0 && source === 'loupe'
  const dividerText = continuedText(continued?.fromModel ?? null, chat.model)
  // One object while what the entries are drawn in stays the same: "Show earlier", a streamed delta or a keystroke
  // leave it, and with it every part already drawn. Entries read or added make it anew, and a part draws again only
  // if its entries read something else from it (parts.ts, entry-context.ts).
  const context = useMemo(
    () => entryContext(facts, { sessionId, selectedPassId, onSelectPass, passSources, source, inherited, continuedText: dividerText, runningTools: chat.runningTools, turnRunning: chat.running, tabStop, canTakeBack }),
    [facts, sessionId, selectedPassId, onSelectPass, passSources, source, inherited, dividerText, chat.runningTools, chat.running, tabStop, canTakeBack],
  )
  const parts = useMemo(() => conversationParts(chat.entries, shownFrom, facts.taken.folded), [chat.entries, shownFrom, facts])
  return (
    // Not a live region: a streamed answer would be read out delta by delta. ChatStatus below says what happened.
    <div ref={conversation} className="conversation">
      {notShown > 0 && (
        <button type="button" className="show-earlier" onClick={showEarlier}>
          {showEarlierLabel(notShown)}
        </button>
      )}
      {parts.map((part) => (
        <ConversationPart key={part.key} entries={part.entries} context={context} />
      ))}
      {chat.streaming.length > 0 && (
        <div className="msg assistant streaming" data-testid="streaming">
          <div className="msg-who">Loupe</div>
          {chat.streaming.map((b) =>
            b.kind === 'retry' ? (
              <p key={b.index} className="stream-retry" data-testid="stream-retry">
                {b.text}
              </p>
            ) : b.kind === 'tool_use' ? (
              <div key={b.index} className="tool-call forming">
                <span className="tool-name">{b.toolName}</span> <span className="tool-subject">{b.text}</span>
              </div>
            ) : b.kind === 'thinking' ? (
              <details key={b.index} className="thinking" open>
                <summary>Thinking…</summary>
                <div className="msg-text">{b.text}</div>
              </details>
            ) : (
              // Formatted as it comes, as the answer will be once it ends: a fence still open is a code block that
              // runs to the end of what has arrived (markup.ts), so the text does not jump when the turn ends.
              <MessageText key={b.index} text={b.text} streaming />
            ),
          )}
        </div>
      )}
      {chat.approvals.map((a) => (
        <ApprovalPrompt key={a.toolUseId} sessionId={sessionId} approval={a} />
      ))}
      <p className="visually-hidden" role="status" data-testid="chat-status">
        {chatStatus(chat, source, inherited)}
      </p>
    </div>
  )
}

/**
 * A run of entries drawn together (parts.ts): memoised, so showing earlier entries draws only the parts they fill,
 * and skipped by the browser's layout and paint while off screen (conversation.css). Until it is first drawn, it is
 * taken to be about as tall as its entries usually are.
 */
const ConversationPart = memo(function ConversationPart({ entries, context }: { entries: ReadonlyArray<EntryView>; context: EntryContext }) {
  return (
    <div className="conversation-part" style={{ containIntrinsicBlockSize: `auto ${entries.length * ESTIMATED_ENTRY_PX}px` }}>
      {entries.map((entry) => drawEntryInPlace(entry, context))}
    </div>
  )
}, partDrawsSame)

/**
 * Height taken by an entry not drawn yet, on average: a message and its call, a result drawn on the call (nothing of
 * its own), a turn's end (nothing). Only the scroll bar's length depends on it until the entry comes near the view.
 */
const ESTIMATED_ENTRY_PX = 40

/** "Show 150 earlier entries (450 not shown)"; the last step says only how many it shows, not the same number twice. */
function showEarlierLabel(notShown: number): string {
  if (notShown > SHOWN_ENTRIES_STEP) return `Show ${grouped(SHOWN_ENTRIES_STEP)} earlier entries (${grouped(notShown)} not shown)`
  return notShown === 1 ? 'Show the 1 earlier entry' : `Show the ${grouped(notShown)} earlier entries`
}
