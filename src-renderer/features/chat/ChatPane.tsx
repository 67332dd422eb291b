import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import type { PermissionModeName, Session } from '../../../src-preload/contract'
import { useAppStore } from '../../state/app'
import { useCompactionStore, type LiveCompaction } from '../../state/compaction'
import { cancelCompaction } from '../compaction/actions'
import { LiveProgress } from '../compaction/components/LiveProgress'
import { selectChat, useChatStore } from '../../state/chat'
import { selectDraft, useDraftsStore } from '../../state/drafts'
import { useInspectorStore } from '../../state/inspector'
import { loadSession, sendMessage, stopTurn, switchMode } from './actions'
import { Conversation } from './Conversation'
import type { ContinuedFrom } from './continued'
import { sessionSourceOf } from './origin'
import { ContinueButton } from './ContinueButton'
import { AllowRules } from './AllowRules'
import { ModelSwitch } from './ModelSwitch'
import { retiredModelNote } from './model-choice'
import { useModelDay } from './use-model-day'
import { conversationPoint } from './switch-question'
import { RevealNewest, useFollowNewest, UserMovesView } from './follow'
import { enabledMessageBox, useMessageBoxAfterRemoval } from './focus'
import { composerPlaceholder, heldWords, stopLabel } from './composer-text'
import { commandButtonLabel, mistypedCommand, mistypedWords, type MistypedCommand } from './mistyped-command'
import { errorApplies } from './limits'
import { skippedLinesNote } from '../transcripts/skipped-lines'
import './chat-pane.css'

export interface ChatPaneProps {
  readonly sessionId: string
  readonly title: string
  /** Who ran the session (the contract's Session `origin`); null from an older host, then told from its passes. */
  readonly origin: Session['origin'] | null
  /** The project the session is filed under. */
  readonly projectId: string
  /** A session continued from an imported conversation: how many of its first entries came from it, and its model. */
  readonly continued: ContinuedFrom | null
  /** The session that started this one (an imported subagent's or compaction call's parent), or null. */
  readonly parentSessionId?: string | null
  /** An imported session whose file had lines that could not be read (the contract's Session `skippedLines`), or null. */
  readonly skippedLines?: Session['skippedLines'] | null
  readonly selectedPassId: string | null
  readonly onSelectPass: (passId: string) => void
}

export function ChatPane({ sessionId, title, origin, continued, parentSessionId = null, skippedLines = null, projectId, selectedPassId, onSelectPass }: ChatPaneProps) {
  const chat = useChatStore(selectChat(sessionId))
  // A compaction running in this session (/compact, the compact tool, or automatic): its progress shows here too.
  const compacting = useCompactionStore((s) => s.bySession[sessionId]?.live ?? null)
  // What answers now: "Offline simulator" (said beside the session's model), or with an API key "Anthropic API".
  const endpointLabel = useAppStore((s) => s.info?.model.label ?? '')
  const simulated = useAppStore((s) => s.info?.model.kind === 'simulator')
  // Drawn again when a model's end of life begins, so a window left open across the day does not go on offering it.
  const now = useModelDay()
  const retiredNote = retiredModelNote(chat.model, now, simulated)
  const scroller = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  // Who made this conversation, from its passes: the inspector beside the chat lists them (InspectorPane loads the
  // same session's). A session imported from Claude Code or captured by the proxy is read-only.
  const passes = useInspectorStore((s) => s.passes)
  const source = useMemo(() => (origin === 'transcript' ? 'transcript' : origin === 'captured' ? 'proxy' : origin === 'loupe' ? 'loupe' : sessionSourceOf(passes, sessionId)), [origin, passes, sessionId])
  const readOnly = source !== 'loupe'
  const passSources = useMemo(() => new Map(passes.map((p) => [p.id, p.source ?? 'loupe'] as const)), [passes])

  useEffect(() => {
    void loadSession(sessionId)
  }, [sessionId])

  // The newest stays in view as the conversation grows, and when the inspector moves or hides (the chat's height
  // changes under it) — while the user is at the bottom. Scrolled up, the view stays put and "Jump to latest" goes
  // back; sending a message goes back too.
  const { following, jumpToLatest, userMovesView } = useFollowNewest(scroller, content)
  const jump = (e: MouseEvent<HTMLButtonElement>) => {
    const fromKeyboard = document.activeElement === e.currentTarget
    jumpToLatest()
    // The button goes once used: from the keyboard, the keyboard goes on to the message box (a pointer's click left
    // the focus where it was).
    if (fromKeyboard) (enabledMessageBox() ?? scroller.current)?.focus()
  }

  // Esc stops the running turn when nothing closer takes it: one rule for every view (features/palette/shortcuts.ts).

  return (
    <section className="chat" aria-label="Session" data-session-id={sessionId}>
      <header className="chat-head">
        <h1 title={title}>{title}</h1>
        {/* One group, kept to the right whether it shares the title's line or wraps below it: the controls do not
            move from one edge to the other as titles change length. */}
        <div className="chat-controls">
          {readOnly ? (
            // Loupe never ran this session: no permission mode applies to it, and Loupe's model did not write it.
            <span className="session-origin">{source === 'transcript' ? 'Imported from Claude Code' : 'Captured by the proxy'}</span>
          ) : (
            <>
              <label className="mode-switch">
                Mode
                <select aria-label="Permission mode" value={chat.mode} onChange={(e) => void switchMode(sessionId, e.target.value as PermissionModeName)}>
                  <option value="plan">plan (read-only)</option>
                  <option value="build">build (ask before changes)</option>
                  <option value="auto">auto (no questions)</option>
                </select>
              </label>
              <AllowRules sessionId={sessionId} />
              <ModelSwitch sessionId={sessionId} model={chat.model} prefix={simulated ? endpointLabel : ''} running={chat.running} conversationAt={conversationPoint(chat.entries)} now={now} />
            </>
          )}
        </div>
      </header>
      {/* A read-only session's is focusable from script: where "Jump to latest" leaves the keyboard there. */}
      <div ref={scroller} className="chat-scroll" tabIndex={readOnly ? -1 : undefined}>
        <div ref={content}>
          {chat.loaded && chat.entries.length === 0 && !readOnly && (
            <div className="chat-empty">
              <p>Ask the agent about this project.</p>
              <p className="muted">Try “list the files”, “read README.md”, “grep for "TODO"”, or “replace "a" with "b" in file.ts”.</p>
            </div>
          )}
          {chat.loaded && chat.entries.length === 0 && readOnly && (
            <div className="chat-empty">
              <p>No conversation to show here: the captured requests are in the inspector, one pass each, as they were sent.</p>
            </div>
          )}
          <RevealNewest.Provider value={jumpToLatest}>
            <UserMovesView.Provider value={userMovesView}>
              <Conversation sessionId={sessionId} chat={chat} selectedPassId={selectedPassId} onSelectPass={onSelectPass} passSources={passSources} source={source} continued={continued} />
            </UserMovesView.Provider>
          </RevealNewest.Provider>
        </div>
      </div>
      {!following && (
        <div className="chat-jump-anchor">
          <button type="button" className="chat-jump" onMouseDown={(e) => e.preventDefault()} onClick={jump} title="Scroll to the newest and follow it again">
            Jump to latest <span aria-hidden="true">↓</span>
          </button>
        </div>
      )}
      {!readOnly && retiredNote && (
        <p className="model-retired-note" role="note" data-testid="model-retired-note">
          {retiredNote}
        </p>
      )}
      {chat.error && <ChatError sessionId={sessionId} error={chat.error} about={chat.errorAbout} />}
      {compacting && <ChatCompaction live={compacting} sessionId={sessionId} />}
      {readOnly && (
        <p className="read-only-note" role="note">
          {source === 'transcript' ? (
            <>
              This session was imported from Claude Code: Loupe shows it as recorded and cannot add to it.
              {/* Not the whole file: the lines it could not read are not in it (the panel's row said so before). */}
              {skippedLines && <span className="skipped-lines-note"> {skippedLinesNote(skippedLines)}</span>}
              {/* A subagent's or a compaction call's conversation is part of its parent's: the parent is what goes on. */}
              {!parentSessionId && <ContinueButton sessionId={sessionId} projectId={projectId} />}
            </>
          ) : (
            "This session records another agent's requests, captured by the proxy: Loupe shows them as recorded and cannot add to it."
          )}
        </p>
      )}
      <Composer sessionId={sessionId} running={chat.running} compacting={compacting !== null} readOnly={readOnly} onSend={jumpToLatest} />
    </section>
  )
}

/**
 * The session's error. One that refuses a message (`about`: too long, too large for the model's window) is shown
 * only while the message box still holds that message: once it says something else — typed, taken back into it, a
 * cancelled /compact put back — the error no longer applies. Its own component, so a keystroke renders this line
 * alone, not the conversation.
 */
function ChatError({ sessionId, error, about }: { sessionId: string; error: string; about: string | null }) {
  const draft = useDraftsStore(selectDraft(sessionId))
  if (!errorApplies(about, draft)) return null
  return (
    <p className="error chat-error" role="alert">
      {error}
    </p>
  )
}

/**
 * The compaction in flight, above the message box. Its Cancel goes away once pressed: the keyboard that pressed it
 * goes on to the message box (the turn it ran in goes on, decision 0030), not to the chat's heading.
 */
function ChatCompaction({ live, sessionId }: { live: LiveCompaction; sessionId: string }) {
  const card = useRef<HTMLDivElement>(null)
  useMessageBoxAfterRemoval(card)
  return (
    <div ref={card} className="chat-compaction">
      <LiveProgress live={live} onCancel={() => void cancelCompaction(sessionId)} />
    </div>
  )
}

/**
 * The message box and Send (or Stop). It reads the draft itself, so a keystroke renders this box alone, not the
 * conversation above it. The draft lives in a store: it survives the chat being unmounted (another view or session).
 *
 * Esc is named on the control it triggers, and on no other. While a compaction runs in the session (`/compact`, or
 * automatic in a turn) Esc cancels it (stopRunning, features/palette/commands.ts), and its progress card above says
 * "Cancel (Esc)"; Stop here still stops the run, compaction and all, but does not claim the key.
 */
function Composer({ sessionId, running, compacting, readOnly, onSend }: { sessionId: string; running: boolean; compacting: boolean; readOnly: boolean; onSend(): void }) {
  const draft = useDraftsStore(selectDraft(sessionId))
  const setDraft = (text: string) => useDraftsStore.getState().draftChanged(sessionId, text)
  const box = useRef<HTMLTextAreaElement>(null)
  const action = useRef<HTMLButtonElement>(null)
  // A message that begins with a slash command typed wrong ("/compcat") is held once (decision 0045): the note under
  // the box offers the command; Send or Enter again on the same text sends it as written.
  const [heldCommand, setHeldCommand] = useState<{ readonly sessionId: string; readonly text: string } | null>(null)
  const heldAsTyped = heldCommand !== null && heldCommand.sessionId === sessionId && heldCommand.text === draft
  const mistyped = heldAsTyped && !running && !readOnly ? mistypedCommand(draft) : null
  const send = () => {
    const text = draft
    if (!text.trim()) return
    if (!heldAsTyped && mistypedCommand(text)) {
      setHeldCommand({ sessionId, text })
      return
    }
    setHeldCommand(null)
    // A message sent goes to the bottom, where its answer comes.
    onSend()
    void sendMessage(sessionId, text).then((sent) => sent && useDraftsStore.getState().draftSent(sessionId, text))
  }
  // The command the held message looks like, with what followed its word; the box lets go of what was typed.
  const runCommand = (command: MistypedCommand) => {
    const text = draft
    setHeldCommand(null)
    onSend()
    void sendMessage(sessionId, command.corrected).then((sent) => sent && useDraftsStore.getState().draftSent(sessionId, text))
  }
  // Send becomes Stop while the turn runs, and Stop becomes Send (disabled with nothing typed) when it ends: the
  // keyboard does not stay on a button that changed under it, it goes to the message box, to type on.
  useLayoutEffect(() => {
    if (document.activeElement === action.current) box.current?.focus()
  }, [running])
  const fromButton = (run: () => void) => () => {
    box.current?.focus()
    run()
  }
  // Enter pressed while a turn runs sends nothing (a turn takes one message): the box says so, rather than seem to
  // have missed the key, until the turn ends.
  const [held, setHeld] = useState(false)
  useEffect(() => {
    if (!running) setHeld(false)
  }, [running])
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      if (readOnly) return
      if (running) setHeld(draft.trim() !== '')
      else send()
    }
  }
  return (
    <div className="composer">
      {held && running && (
        <p className="composer-held" role="status" data-testid="composer-held">
          {heldWords(compacting)}
        </p>
      )}
      <textarea
        ref={box}
        aria-label="Message"
        placeholder={composerPlaceholder(readOnly, running, compacting)}
        disabled={readOnly}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        rows={3}
      />
      {/* Clicked, either one leaves the keyboard in the message box, as Enter there would. */}
      {running ? (
        <button ref={action} className="stop" onClick={fromButton(() => void stopTurn(sessionId))} title={compacting ? 'Stop the run: the compaction is cancelled, and a turn it is part of stops too' : undefined}>
          {stopLabel(compacting)}
        </button>
      ) : (
        <button ref={action} className="primary" onClick={fromButton(send)} disabled={readOnly || !draft.trim()}>
          Send
        </button>
      )}
      {mistyped && (
        <p className="composer-mistyped" role="status" data-testid="composer-mistyped">
          <span>{mistypedWords(mistyped)}</span>
          <button type="button" onClick={fromButton(() => runCommand(mistyped))}>
            {commandButtonLabel(mistyped)}
          </button>
        </p>
      )}
    </div>
  )
}
