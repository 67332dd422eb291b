/**
 * The compaction view (docs/inspector.md "Compaction"): every checkpoint of the session as a card; for the one
 * opened, the history the model saw before and after as a diff (summarised range, trimmed tool results and the
 * summary head marked) and the summary itself. From here: compact now with a focus, a dry run whose summary can be
 * edited before it is applied or thrown away, pins, and the compaction in flight with its progress and a way to
 * cancel it.
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import { useMonaco } from '../../monaco'
import { selectChat, useChatStore } from '../../state/chat'
import { selectCompactions, useCompactionStore } from '../../state/compaction'
import { findSession, useSessionsStore } from '../../state/sessions'
import { useSlow } from '../palette/use-slow'
import { addPin, cancelCompaction, compactNow, compactionMessage, loadCompactions, removePin, type CompactionOutcomeText } from './actions'
import { CheckpointCard } from './components/CheckpointCard'
import { checkpointFacts, draftFacts } from './model/card-facts'
import { CheckpointDetail, DraftDetail } from './components/Detail'
import { LiveProgress } from './components/LiveProgress'
import { detailPane } from './model/detail-pane'
import { SessionLabel } from '../shell/SessionLabel'
import { copyText } from '../../ui/clipboard'
import { oneLine } from '../../ui/format'
import './compaction.css'

export function CompactionView({ sessionId }: { sessionId: string }) {
  const data = useCompactionStore(selectCompactions(sessionId))
  const selection = useCompactionStore((s) => s.selection)
  // A dry run's card gives its size with the user's edits to the summary, as its detail does.
  const summaryEdits = useCompactionStore((s) => s.summaryEdits)
  const chat = useChatStore(selectChat(sessionId))
  const monaco = useMonaco()
  // A session Loupe did not run (imported, captured) is a record: its compactions are shown, none is started.
  const origin = useSessionsStore((s) => findSession(s, sessionId)?.origin ?? 'loupe')
  const readOnly = origin !== 'loupe'

  useEffect(() => {
    void loadCompactions(sessionId)
  }, [sessionId])

  // Open the newest card when nothing (or something of another session) is open.
  const ids = useMemo(() => new Set([...data.checkpoints.map((c) => c.checkpoint.id), ...data.drafts.map((d) => d.draftId)]), [data])
  useEffect(() => {
    if (selection && ids.has(selection.id)) return
    const draft = data.drafts.at(-1)
    const last = data.checkpoints.at(-1)
    useCompactionStore.getState().selected(draft ? { kind: 'draft', id: draft.draftId } : last ? { kind: 'checkpoint', id: last.checkpoint.id } : null)
  }, [ids, selection, data])

  // A dry run applied or discarded from the keyboard took its buttons away with it. Applied, the keyboard goes to
  // the checkpoint it made (shown by then: applyDraft opens it); discarded, to the focus field, for the next run.
  const [checkpointTakesFocus, setCheckpointTakesFocus] = useState(false)
  const checkpointFocused = useCallback(() => setCheckpointTakesFocus(false), [])
  const draftGone = useCallback((how: 'applied' | 'discarded') => {
    if (how === 'applied') setCheckpointTakesFocus(true)
    else document.getElementById('compaction-focus')?.focus()
  }, [])

  const record = selection?.kind === 'checkpoint' ? data.checkpoints.find((c) => c.checkpoint.id === selection.id) : undefined
  const draft = selection?.kind === 'draft' ? data.drafts.find((d) => d.draftId === selection.id) : undefined
  const pane = detailPane(monaco !== null, { draft: draft !== undefined, checkpoint: record !== undefined })
  const outOfDate = data.drafts.filter((d) => d.stale === true).length
  const waiting = data.drafts.length - outOfDate
  const failure = data.lastFailure && !data.live ? data.lastFailure : null
  const failureText = failure ? compactionMessage(failure.reason, failure.message) : null
  // A note shown here has been seen: it goes when the user leaves the view or the session (events.ts).
  const shownNote = failure?.level === 'note' ? failure.compactionId : null
  useEffect(() => {
    if (shownNote !== null) useCompactionStore.getState().noteShown(sessionId, shownNote)
  }, [sessionId, shownNote])

  return (
    <div className="view-page compaction" data-testid="compaction-view">
      <header className="view-head">
        <h1>Compaction</h1>
        <SessionLabel sessionId={sessionId} />
        <span className="muted">
          {data.checkpoints.length} checkpoint{data.checkpoints.length === 1 ? '' : 's'}
          {waiting > 0 && ` · ${waiting} dry run${waiting === 1 ? '' : 's'} waiting`}
          {outOfDate > 0 && ` · ${outOfDate} dry run${outOfDate === 1 ? '' : 's'} out of date`}
        </span>
      </header>
      {readOnly ? (
        <p className="read-only-note" role="note">
          {origin === 'transcript'
            ? 'This session was imported from Claude Code: its compactions are shown as the transcript recorded them, and Loupe cannot compact it or pin facts in it. Continue it as a Loupe session from the chat to go on from it.'
            : "This session records another agent's requests, captured by the proxy: Loupe shows them as recorded and cannot compact it."}
        </p>
      ) : (
        <ComposeBar sessionId={sessionId} running={chat.running} failureShown={failureText} />
      )}
      {data.live && <LiveProgress live={data.live} onCancel={() => void cancelCompaction(sessionId)} />}
      <LostEdit />
      {failure && failure.level === 'note' && (
        // Nothing to compact yet: the conversation is as it was and nothing needs doing, so no alarm.
        <p className="cmp-note" role="status" data-testid="compaction-note">
          {failureText}
        </p>
      )}
      {failure && failure.level === 'error' && (
        <p className="error-box" role="alert" data-testid="compaction-failure">
          <strong>{failureText}</strong>
        </p>
      )}
      {data.error && (
        <p className="error-box" role="alert">
          <strong>{data.error}</strong> Reopen the view to try again.
        </p>
      )}
      <div className="cmp-body">
        <div className="cmp-side">
          {data.checkpoints.length === 0 && data.drafts.length === 0 ? (
            <div className="cmp-empty muted">
              <p>
                <strong>No compaction yet.</strong>
              </p>
              {!readOnly && (
                <p>
                  Loupe compacts on its own when the context reaches the threshold set in Settings. You can compact now with a focus above, type <code>/compact [focus]</code> in the chat, or try a dry run to read and edit the summary first.
                </p>
              )}
            </div>
          ) : (
            <ol className="cmp-cards" reversed>
              {[...data.drafts].reverse().map((d) => (
                <li key={d.draftId}>
                  <CheckpointCard facts={draftFacts(d, summaryEdits[d.draftId])} at={null} draft selected={selection?.id === d.draftId} onSelect={() => useCompactionStore.getState().selected({ kind: 'draft', id: d.draftId })} />
                </li>
              ))}
              {[...data.checkpoints].reverse().map((c) => (
                <li key={c.checkpoint.id}>
                  <CheckpointCard facts={checkpointFacts(c)} at={c.checkpoint.at} draft={false} selected={selection?.id === c.checkpoint.id} onSelect={() => useCompactionStore.getState().selected({ kind: 'checkpoint', id: c.checkpoint.id })} />
                </li>
              ))}
            </ol>
          )}
          {!readOnly && <Pins sessionId={sessionId} pins={data.pins} />}
        </div>
        <div className="cmp-detail">
          {pane === 'loading' ? (
            <p className="muted">Loading the editor…</p>
          ) : draft && monaco ? (
            <DraftDetail key={draft.draftId} monaco={monaco} sessionId={sessionId} draft={draft} entries={chat.entries} onGone={draftGone} />
          ) : record && monaco ? (
            <CheckpointDetail monaco={monaco} sessionId={sessionId} record={record} entries={chat.entries} takeFocus={checkpointTakesFocus} onFocused={checkpointFocused} />
          ) : (
            <p className="muted cmp-empty" data-testid="compaction-detail-empty">
              {data.checkpoints.length + data.drafts.length > 0
                ? 'Open a card to see what the model saw before and after it.'
                : 'Each compaction shows here with what the model saw before and after it.'}
            </p>
          )}
        </div>
      </div>
    </div>
  )
}

/** `failureShown`: the failure the view already shows below (from compaction.failed): the bar does not say it twice. */
function ComposeBar({ sessionId, running, failureShown }: { sessionId: string; running: boolean; failureShown: string | null }) {
  // In the store, per session: it outlives the view, and empties there when the checkpoint it was for is made.
  const focus = useCompactionStore((s) => selectCompactions(sessionId)(s).focus)
  const setFocus = (text: string) => useCompactionStore.getState().focusTyped(sessionId, text)
  const [busy, setBusy] = useState<'now' | 'dry' | null>(null)
  const [message, setMessage] = useState<CompactionOutcomeText | null>(null)
  const slow = useSlow(busy !== null)
  // A new turn or compaction makes the last answer old news (the store clears its failure the same way).
  useEffect(() => {
    if (running) setMessage(null)
  }, [running])
  const run = async (dryRun: boolean) => {
    setBusy(dryRun ? 'dry' : 'now')
    setMessage(null)
    const failure = await compactNow(sessionId, focus, dryRun)
    setBusy(null)
    setMessage(failure)
  }
  return (
    <form
      className="cmp-compose"
      onSubmit={(e) => {
        e.preventDefault()
        void run(false)
      }}
    >
      {/* What the field is for, above it: said in the placeholder, it was cut at the field's edge in a narrow window
          (800 px), and it went as soon as the user typed. The placeholder keeps only the example. */}
      <label htmlFor="compaction-focus" id="compaction-focus-hint" className="cmp-focus-label">
        <strong>Focus</strong> <span className="muted">(optional): what the summary must keep</span>
      </label>
      <input id="compaction-focus" aria-label="Compaction focus" aria-describedby="compaction-focus-hint" placeholder="e.g. “the failing parser test”" value={focus} onChange={(e) => setFocus(e.target.value)} maxLength={4000} />
      <button type="submit" className="primary" disabled={busy !== null || running} title="Summarise the older part of the conversation now">
        {busy === 'now' && slow ? 'Compacting…' : 'Compact now'}
      </button>
      <button type="button" disabled={busy !== null || running} onClick={() => void run(true)} title="Write the summary without applying it: read it, edit it, then apply or discard">
        {busy === 'dry' && slow ? 'Writing the draft…' : 'Dry run'}
      </button>
      {running && !busy && <span className="muted small">The agent is working: compact when the turn ends.</span>}
      {message && message.text !== failureShown && (
        <span className={message.level === 'note' ? 'muted small' : 'error'} role={message.level === 'note' ? 'status' : 'alert'}>
          {message.text}
        </span>
      )}
    </form>
  )
}

function Pins({ sessionId, pins }: { sessionId: string; pins: ReadonlyArray<{ pinId: string; text: string }> }) {
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  return (
    <section className="cmp-pins" aria-label="Pinned facts">
      <h2>Pinned facts</h2>
      <p className="muted small">After every compaction Loupe checks that each pinned fact survived, re-injects it, or says it was lost.</p>
      <ul>
        {pins.map((p) => (
          <li key={p.pinId}>
            <bdi>{p.text}</bdi>
            <button type="button" onClick={() => void removePin(sessionId, p.pinId)} aria-label={`Unpin “${oneLine(p.text, 80)}”`}>
              Unpin
            </button>
          </li>
        ))}
      </ul>
      <form
        className="cmp-pin-form"
        onSubmit={(e) => {
          e.preventDefault()
          if (!text.trim()) return
          void addPin(sessionId, text).then((failure) => {
            setProblem(failure)
            if (!failure) setText('')
          })
        }}
      >
        <input aria-label="Fact to pin" placeholder="A fact the summary must keep" value={text} onChange={(e) => setText(e.target.value)} maxLength={8000} />
        <button type="submit" disabled={!text.trim()}>
          Pin
        </button>
      </form>
      {problem && <p className="error small">{problem}</p>}
    </section>
  )
}

/** A dry run applied from another window without the summary edited here: the edited text, to copy, then dismiss. */
function LostEdit() {
  const lost = useCompactionStore((s) => s.lostEdit)
  const [note, setNote] = useState<string | null>(null)
  if (!lost) return null
  const copy = async () => setNote(await copyText(lost.text, 'Copied.'))
  return (
    <div className="warn-box" role="alert" data-testid="lost-summary-edit">
      <strong>This dry run was applied from another window, without the edits you made to its summary here.</strong> The
      checkpoint holds the summary as it was applied; your text is kept until you dismiss this.{' '}
      <button type="button" onClick={() => void copy()}>
        Copy my text
      </button>{' '}
      <button type="button" onClick={() => useCompactionStore.getState().lostEditDismissed()}>
        Dismiss
      </button>
      {note && <span className="muted small"> {note}</span>}
    </div>
  )
}
