import { Fragment, memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { EntryView } from '../../../src-preload/contract'
import { useChatStore, type SessionChat } from '../../state/chat'
import { useInspectorStore } from '../../state/inspector'
import { ApprovalPrompt } from './Approval'
import { enabledMessageBox } from './focus'
import { loadEarlierEntries, retryTurn, takeBackMessage } from './actions'
import { ENTRIES_BEFORE_ANSWER } from '../../../src-preload/limits'
import { repeatedFailures, retryableFailure } from './retry'
import { MessageText, UserMessageText } from './MessageText'
import { ToolCall } from './ToolCall'
import { answerDrawsSame, type AnswerProps } from './answer-props'
import { authorOf, type ConversationSource } from './origin'
import { continuedText, type ContinuedFrom } from './continued'
import { ModelName, ModelNamed } from '../inspector/components/ModelName'
import { isTakeBack, messagesTakenFrom, takeBackableMessages, takeBacks, takeBackSummary, takeBackUndoneWords } from './take-back'
import { chatStatus } from './status'
import { grouped, usd } from '../../ui/format'
import { provisionalContext, useCompactionStore } from '../../state/compaction'
import { loadCompactions } from '../compaction/actions'
import { shortFocus } from '../compaction/components/LiveProgress'
import { sizesExplained } from '../compaction/model/sizes'
import { summarisedWords } from '../compaction/model/summarised'

type Block = { type: string; text?: string; thinking?: string; id?: string; name?: string; input?: unknown }

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
  // Computed when the entries change, not at every streamed delta: the messages below are memoised on them.
  const results = useMemo(() => {
    const map = new Map<string, EntryView>()
    for (const e of chat.entries) if (e.kind === 'tool_result') map.set(String(e.toolUseId), e)
    return map
  }, [chat.entries])
  const lastFailure = useMemo(() => retryableFailure(chat.entries), [chat.entries])
  const repeated = useMemo(() => repeatedFailures(chat.entries), [chat.entries])
  // Messages taken back, folded under their take-back; and the messages a "Take back" is offered on now (an earlier
  // one takes the later ones with it).
  const taken = useMemo(() => takeBacks(chat.entries), [chat.entries])
  const backable = useMemo(() => takeBackableMessages(chat.entries, taken.folded, inherited), [chat.entries, taken, inherited])
  const canTakeBack = !chat.running && chat.approvals.length === 0 && source === 'loupe'
  // A pass's answer is its last assistant message: an imported compaction call's conversation links every message it
  // carried to its one pass, and only the answer is that pass's to mark.
  const answers = useMemo(() => {
    const last = new Map<string, string>()
    for (const e of chat.entries) if (e.kind === 'assistant_message') last.set(String(e.passId), e.id)
    return new Set(last.values())
  }, [chat.entries])
  // Entry numbers by id, for a checkpoint's summarised range (those not read yet: from the host's `seqs`).
  const seqOf = useMemo(() => {
    const seqs = new Map(chat.entries.map((e) => [e.id, e.seq]))
    return (entryId: string) => seqs.get(entryId) ?? chat.seqs[entryId]
  }, [chat.entries, chat.seqs])
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
  const showEarlier = () => {
    const from = chat.entries[shownFrom]
    if (!from) return
    if (shownFrom >= SHOWN_ENTRIES_STEP || chat.earlier === 0) return setChosenFromSeq(chat.entries[Math.max(0, shownFrom - SHOWN_ENTRIES_STEP)]!.seq)
    // Fewer than a step read before what is shown: the earlier entries are read first, then a whole step shown.
    void loadEarlierEntries(sessionId).then(() => {
      const entries = useChatStore.getState().bySession[sessionId]?.entries ?? []
      const at = entries.findIndex((e) => e.seq >= from.seq)
      if (at > 0) setChosenFromSeq(entries[Math.max(0, at - SHOWN_ENTRIES_STEP)]!.seq)
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
    ;(closed ? fold!.querySelector('summary')! : message).scrollIntoView({ block: 'nearest' })
  }, [selectedPassId, shownFrom])
  const renderEntry = (entry: EntryView): ReactNode => {
    switch (entry.kind) {
      case 'user_message':
        return (
          <div key={entry.id} className="msg user" data-entry-kind="user_message">
            <div className="msg-who">
              You
              {canTakeBack && messagesTakenFrom(backable, entry) > 0 && (
                <TakeBackButton later={messagesTakenFrom(backable, entry) - 1} onTake={() => void takeBackMessage(sessionId, entry.id)} />
              )}
            </div>
            <UserMessageText text={((entry.content as Block[]) ?? []).map((b) => b.text ?? '').join('\n')} />
          </div>
        )
      case 'assistant_message': {
        const passId = String(entry.passId)
        return (
          <AssistantMessage
            key={entry.id}
            entry={entry}
            selected={passId === selectedPassId && answers.has(entry.id)}
            onSelectPass={onSelectPass}
            author={inherited !== null && entry.seq <= inherited ? authorOf('transcript') : authorOf(passSources.get(passId) ?? source)}
            results={results}
            runningTools={chat.runningTools}
            turnRunning={chat.running}
            recorded={source !== 'loupe'}
            tabStop={entry.id === tabStop}
          />
        )
      }
      case 'mode_switched':
        return <Note key={entry.id} text={`Permission mode: ${String(entry.mode)}`} />
      case 'model_switched':
        // The model by its name ("Model: Opus 4.6"), its id on hover.
        return (
          <div key={entry.id} className="note">
            Model: <ModelName id={String(entry.model)} />
          </div>
        )
      case 'memory_saved':
        return <Note key={entry.id} text={`Saved to ${String(entry.scope)} memory: ${String(entry.fact)}`} />
      case 'approval':
        if (entry.decision === 'denied') return <Note key={entry.id} text={`Denied${entry.reason ? `: ${String(entry.reason)}` : ''}`} />
        // An "always" answer grants a rule: said once, where it was given (the header lists the rules held now).
        return typeof entry.rule === 'string' ? <Note key={entry.id} text={`Always allowed from now on: ${entry.rule.replace(': ', ' ')}`} /> : null
      case 'todo_updated':
        return <Todos key={entry.id} todos={(entry.todos as Array<{ content: string; status: string }>) ?? []} />
      case 'turn_failed': {
        // A Retry that failed the same way again is counted on the newest, not shown as another box.
        if (repeated.hidden.has(entry.id)) return null
        const times = repeated.times.get(entry.id)
        return (
          <div key={entry.id} className="turn-failed" role="alert">
            <p>
              {String(entry.message)}
              {times !== undefined && <span className="muted"> ({times} times in a row)</span>}
            </p>
            {entry === lastFailure && !chat.running && source === 'loupe' && (
              // The button goes as the turn starts again: the keyboard goes on to the message box, not to the page.
              <button
                onClick={() => {
                  enabledMessageBox()?.focus()
                  void retryTurn(sessionId)
                }}
              >
                Retry
              </button>
            )}
          </div>
        )
      }
      case 'checkpoint':
        return <Checkpoint key={entry.id} sessionId={sessionId} entry={entry} seqOf={seqOf} />
      case 'context_edit':
        if (isTakeBack(entry)) return <TakenBack key={entry.id} entries={taken.under.get(entry.id) ?? []} render={renderEntry} />
        return <Note key={entry.id} text={`Context edit by ${String(entry.source)}: ${((entry.edits as unknown[]) ?? []).length} entries changed for the model`} />
      case 'pin':
        return <Note key={entry.id} text={entry.action === 'added' ? `Pinned: ${String(entry.text)}` : 'Pin removed'} />
      case 'notice':
        return (
          <div key={entry.id} className={`notice ${String(entry.level)}`} role={entry.level === 'warning' ? 'alert' : undefined}>
            {String(entry.text)}
          </div>
        )
      case 'turn_ended':
        return entry.reason === 'cancelled' ? (
          <Note key={entry.id} text="Stopped." />
        ) : entry.reason === 'nothing_to_compact' ? (
          <Note key={entry.id} text="Nothing to compact yet: the conversation is short enough." />
        ) : entry.reason === 'pass_limit' ? (
          <Note key={entry.id} text="Stopped after the per-turn pass limit; send a message to go on." />
        ) : null
      default:
        return null
    }
  }
  // One Tab stop for the answers (the chosen one, else the newest); Up and Down move between them (AssistantMessage).
  const tabStop = useMemo(() => {
    const shown = chat.entries.slice(shownFrom).filter((e) => e.kind === 'assistant_message' && !taken.folded.has(e.id))
    return (shown.findLast((e) => e.passId === selectedPassId) ?? shown.at(-1))?.id ?? null
  }, [chat.entries, shownFrom, selectedPassId, taken])
  return (
    // Not a live region: a streamed answer would be read out delta by delta. ChatStatus below says what happened.
    <div className="conversation">
      {notShown > 0 && (
        <button type="button" className="show-earlier" onClick={showEarlier}>
          Show {Math.min(notShown, SHOWN_ENTRIES_STEP)} earlier entries ({grouped(notShown)} not shown)
        </button>
      )}
      {chat.entries.slice(shownFrom).map((entry) => {
        if (taken.folded.has(entry.id)) return null
        const rendered = renderEntry(entry)
        // Where a continued conversation goes on in Loupe: after the last entry it brought from Claude Code.
        if (inherited === null || entry.seq !== inherited) return rendered
        return (
          <Fragment key={entry.id}>
            {rendered}
            <div className="continued-divider" role="separator" data-testid="continued-divider">
              <ModelNamed text={continuedText(continued?.fromModel ?? null, chat.model)} />
            </div>
          </Fragment>
        )
      })}
      {chat.streaming.length > 0 && (
        <div className="msg assistant streaming" data-testid="streaming">
          <div className="msg-who">Loupe</div>
          {chat.streaming.map((b) =>
            b.kind === 'tool_use' ? (
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

/** Whether a main pass has run since `at` (the first pass after a checkpoint measures its "after"). */
const passRanSince = (sessionId: string, at: number) => (s: ReturnType<typeof useInspectorStore.getState>): boolean =>
  s.passes.some((p) => p.sessionId === sessionId && p.kind === 'main' && p.queuedAt >= at && p.usage !== null)

/** A number of tokens, with ≈ when it is an estimate. */
const sized = (n: number | null | undefined, measured: boolean) => (n === null || n === undefined ? '—' : `${measured ? '' : '≈'}${grouped(n)}`)

/**
 * One answer of the model: its text, thinking and tool calls, chosen (click, Enter or Space) to show its pass in the
 * inspector. Memoised: streaming, typing, choosing another pass and entries that are not its own calls' results leave
 * the other messages as they are (answer-props.ts).
 */
const AssistantMessage = memo(function AssistantMessage({ entry, selected, onSelectPass, author, results, runningTools, turnRunning, recorded, tabStop }: AnswerProps) {
  const passId = String(entry.passId)
  const [focusedInside, setFocusedInside] = useState(false)
  const tabbable = tabStop || focusedInside
  return (
    <div
      className={`msg assistant${selected ? ' selected' : ''}`}
      data-entry-kind="assistant_message"
      data-pass-id={passId}
      onClick={() => onSelectPass(passId)}
      // Chosen from the keyboard too: Tab to the answers, Up and Down between them, Enter or Space to choose (keys
      // inside it, on a tool call or the thinking, stay theirs). Only one answer is in the Tab order at a time, so
      // Tab crosses a long conversation in one step; an answer reached with the arrows takes its controls in.
      tabIndex={tabbable ? 0 : -1}
      aria-current={selected ? 'true' : undefined}
      onFocus={() => setFocusedInside(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusedInside(false)
      }}
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget) return
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault()
          onSelectPass(passId)
        } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
          const answers = [...document.querySelectorAll<HTMLElement>('.conversation .msg.assistant[data-pass-id]:not(.taken-back *)')]
          const next = answers[answers.indexOf(e.currentTarget) + (e.key === 'ArrowUp' ? -1 : 1)]
          if (next) {
            e.preventDefault()
            next.focus()
            next.scrollIntoView({ block: 'nearest' })
          }
        }
      }}
      title="Show the pass that produced this message in the inspector"
    >
      <div className="msg-who">
        {author}
        {entry.partial ? <span className="partial-tag"> · stopped</span> : null}
      </div>
      {((entry.content as Block[]) ?? []).map((b, i) =>
        b.type === 'text' ? (
          <MessageText key={i} text={b.text ?? ''} />
        ) : b.type === 'thinking' ? (
          <details key={i} className="thinking">
            <summary tabIndex={tabbable ? undefined : -1}>Thinking</summary>
            <div className="msg-text">{b.thinking}</div>
          </details>
        ) : b.type === 'tool_use' ? (
          <ToolCall key={i} use={{ id: b.id!, name: b.name!, input: b.input }} result={results.get(b.id!)} running={runningTools.includes(b.id!)} recorded={recorded} turnRunning={turnRunning} tabbable={tabbable} />
        ) : null,
      )}
    </div>
  )
}, answerDrawsSame)

/**
 * A compaction checkpoint: what the model no longer sees, and what replaced it. Its sizes are the Compaction view's,
 * on the same basis (decision 0019, `compaction.list`'s `context`): until that list is read, and until the first pass
 * after it has been measured, the checkpoint's own figures (before as measured, after as its estimate on the real
 * count's scale, marked ≈). The list is read again once that pass has run, for the measured after.
 */
function Checkpoint({ sessionId, entry, seqOf }: { sessionId: string; entry: EntryView; seqOf: (entryId: string) => number | undefined }) {
  const record = useCompactionStore((s) => s.bySession[sessionId]?.checkpoints.find((c) => c.checkpoint.id === entry.id))
  const listLoaded = useCompactionStore((s) => s.bySession[sessionId]?.loaded === true)
  const passRan = useInspectorStore(passRanSince(sessionId, Number(entry.at)))
  const asked = useRef<string | null>(null)
  useEffect(() => {
    // Once without the list, and once more after the first pass after it ran: never in a loop.
    const want = !listLoaded ? 'list' : passRan && record !== undefined && !record.context.after.measured ? 'measured' : null
    if (want === null || asked.current === want) return
    asked.current = want
    void loadCompactions(sessionId)
  }, [sessionId, listLoaded, passRan, record])
  const sizes = record?.context ?? (entry.tokens ? provisionalContext(entry) : null)
  const trimmed = (entry.trimmed as unknown[] | undefined)?.length ?? 0
  const replaced = entry.replaced as { entries: number; fromEntryId: string | null; toEntryId: string | null } | null | undefined
  // The Compaction view's words for the same checkpoint (model/summarised.ts).
  const range = replaced ? summarisedWords(replaced, seqOf) : null
  const focus = typeof entry.focus === 'string' && entry.focus !== '' ? entry.focus : null
  return (
    <div className="checkpoint" data-entry-kind="checkpoint" aria-label="Compaction checkpoint">
      <div className="checkpoint-head">
        <strong>Compacted</strong> · {String(entry.trigger)}
        {focus !== null ? (
          <>
            {' '}
            · focus “<span title={focus}>{shortFocus(focus)}</span>”
          </>
        ) : null}
        {sizes && (
          <span className="muted" title={sizesExplained(sizes, false)} data-testid="chat-checkpoint-sizes">
            {' '}
            · context {sized(sizes.before.tokens, sizes.before.measured)} → {sized(sizes.after.tokens, sizes.after.measured)} tokens
            {!sizes.after.measured && ' (measured at the next pass)'}
          </span>
        )}
      </div>
      <div className="muted checkpoint-detail">
        {entry.stage === 'trim' ? `Trimmed ${trimmed} old tool results; no summary needed.` : <span title={range?.rest ?? undefined}>{`Summarised ${range?.text ?? '0 entries'}${trimmed ? ` after trimming ${trimmed} tool results` : ''}.`}</span>} The earlier entries stay in the session; the model no longer sees them.
        {/* What it cost, and what it will: the conversation's cache does not survive its rewrite. */}
        {typeof entry.costUsd === 'number' && entry.costUsd > 0 && ` The summary cost ${usd(entry.costUsd)}.`} The next pass writes the conversation to the cache afresh.
      </div>
      {typeof entry.summary === 'string' && (
        <details>
          <summary>Summary the model sees</summary>
          <div className="msg-text">{entry.summary}</div>
        </details>
      )}
    </div>
  )
}

/**
 * "Take back" on a message the user sent (decision 0024). On the newest message it takes that message back at once,
 * as it always did. On an earlier one it would take the later messages too: it asks first, saying how many, since
 * the turns it drops are many clicks of "Take back" to reach one at a time. Escape or Cancel leaves things as they were.
 */
function TakeBackButton({ later, onTake }: { later: number; onTake: () => void }) {
  const [asking, setAsking] = useState(false)
  const title = 'Take this message and what came after it out of the conversation: the model no longer sees them, and the text comes back to the message box to change and send again. What the tools did is not undone.'
  if (later === 0) {
    return (
      <button type="button" className="take-back" onClick={onTake} title={title}>
        Take back
      </button>
    )
  }
  if (!asking) {
    return (
      <button type="button" className="take-back take-back-earlier" onClick={() => setAsking(true)} title={title}>
        Take back from here
      </button>
    )
  }
  return (
    <span className="take-back-confirm" role="group" aria-label="Take back from here" onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), setAsking(false))}>
      <button type="button" className="take-back" onClick={onTake} autoFocus title={`This message and the ${later === 1 ? 'one' : later} after it, with their answers`}>
        Take back {later + 1} messages
      </button>
      <button type="button" className="take-back" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  )
}

/**
 * A message taken back, with its turn folded under it (decision 0024): what the model no longer sees, closed by
 * default, and what taking it back did not undo.
 */
function TakenBack({ entries, render }: { entries: ReadonlyArray<EntryView>; render: (entry: EntryView) => ReactNode }) {
  const summary = takeBackSummary(entries)
  const { message, laterMessages, answers } = summary
  const undone = takeBackUndoneWords(summary)
  const them = laterMessages > 0 ? 'them' : 'it'
  return (
    <div className="taken-back" data-entry-kind="take_back">
      <details>
        <summary>
          Taken back: “{message}”{laterMessages > 0 ? ` and ${laterMessages === 1 ? 'the message' : `${laterMessages} messages`} after it` : ''}
          <span className="muted"> · the model no longer sees {them}{answers > 0 ? ` or the ${answers === 1 ? 'answer' : `${answers} answers`} to ${them}` : ''}</span>
        </summary>
        <div className="taken-back-entries">{entries.map(render)}</div>
      </details>
      {undone !== null && <div className="muted taken-back-undone">{undone}</div>}
    </div>
  )
}

function Note({ text }: { text: string }) {
  return <div className="note">{text}</div>
}

function Todos({ todos }: { todos: ReadonlyArray<{ content: string; status: string }> }) {
  return (
    <div className="todos" aria-label="Plan">
      <div className="tool-label">plan</div>
      <ul>
        {todos.map((t, i) => (
          <li key={i} className={`todo ${t.status}`}>
            <span className="todo-mark">{t.status === 'done' ? '✓' : t.status === 'in_progress' ? '▸' : '○'}</span> {t.content}
          </li>
        ))}
      </ul>
    </div>
  )
}
