import { Fragment, memo, useEffect, useRef, useState, type ReactNode } from 'react'
import type { EntryView } from '../../../src-preload/contract'
import { useInspectorStore } from '../../state/inspector'
import { enabledMessageBox } from './focus'
import { retryTurn, takeBackMessage } from './actions'
import { MessageText, UserMessageText } from './MessageText'
import { ToolCall } from './ToolCall'
import { answerDrawsSame, type AnswerProps } from './answer-props'
import { answerPropsOf, checkpointRange, failureShownAs, type EntryContext } from './entry-context'
import { ModelName, ModelNamed } from '../inspector/components/ModelName'
import { isTakeBack, takeBackSummary, takeBackUndoneWords } from './take-back'
import { grouped, usd } from '../../ui/format'
import { provisionalContext, useCompactionStore } from '../../state/compaction'
import { loadCompactions } from '../compaction/actions'
import { shortFocus } from '../compaction/components/LiveProgress'
import { sizesExplained } from '../compaction/model/sizes'
import type { SummarisedWords } from '../compaction/model/summarised'

type Block = { type: string; text?: string; thinking?: string; id?: string; name?: string; input?: unknown }

/** The answers the keyboard moves between (Up and Down), in the conversation's order: not those folded under a take-back. */
export const ANSWERS_SELECTOR = '.msg.assistant[data-pass-id]:not(.taken-back *)'

/** One entry as the conversation shows it, with the line after the last entry a continued conversation brought. */
export function drawEntryInPlace(entry: EntryView, context: EntryContext): ReactNode {
  const drawn = drawEntry(entry, context)
  // Where a continued conversation goes on in Loupe: after the last entry it brought from Claude Code.
  if (context.inherited === null || entry.seq !== context.inherited) return drawn
  return (
    <Fragment key={entry.id}>
      {drawn}
      <div className="continued-divider" role="separator" data-testid="continued-divider">
        <ModelNamed text={context.continuedText} />
      </div>
    </Fragment>
  )
}

/**
 * One entry as the conversation shows it (null for those it does not: a tool's result shows on its call). What it
 * reads from the context, kind by kind, is what `entriesDrawSame` (entry-context.ts) compares: a part whose entries read
 * the same is not drawn again, so a read added here goes there too.
 */
function drawEntry(entry: EntryView, context: EntryContext): ReactNode {
  const { sessionId } = context
  switch (entry.kind) {
    case 'user_message':
      return (
        <div key={entry.id} className="msg user" data-entry-kind="user_message">
          <div className="msg-who">
            You
            {context.takeBackFrom.has(entry.id) && <TakeBackButton later={context.takeBackFrom.get(entry.id)! - 1} onTake={() => void takeBackMessage(sessionId, entry.id)} />}
          </div>
          <UserMessageText text={((entry.content as Block[]) ?? []).map((b) => b.text ?? '').join('\n')} />
        </div>
      )
    case 'assistant_message':
      return <AssistantMessage key={entry.id} {...answerPropsOf(entry, context)} />
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
      // The reason the user typed, and a rule's pattern, set apart (bdi): a direction override in them cannot reorder the note.
      if (entry.decision === 'denied')
        return (
          <div key={entry.id} className="note">
            Denied{entry.reason ? <>: <bdi>{String(entry.reason)}</bdi></> : null}
          </div>
        )
      // An "always" answer grants a rule: said once, where it was given (the header lists the rules held now).
      return typeof entry.rule === 'string' ? (
        <div key={entry.id} className="note">
          Always allowed from now on: <bdi>{entry.rule.replace(': ', ' ')}</bdi>
        </div>
      ) : null
    case 'todo_updated':
      return <Todos key={entry.id} todos={(entry.todos as Array<{ content: string; status: string }>) ?? []} />
    case 'turn_failed': {
      // A Retry that failed the same way again is counted on the newest, not shown as another box.
      const shown = failureShownAs(entry, context)
      if (shown.hidden) return null
      return (
        <div key={entry.id} className="turn-failed" role="alert">
          <p>
            {String(entry.message)}
            {shown.times !== undefined && <span className="muted"> ({shown.times} times in a row)</span>}
          </p>
          {shown.retry && (
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
      return <Checkpoint key={entry.id} sessionId={sessionId} entry={entry} range={checkpointRange(entry, context)} />
    case 'context_edit':
      if (isTakeBack(entry)) return <TakenBack key={entry.id} entries={context.takenUnder.get(entry.id) ?? []} context={context} />
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
      ) : entry.reason === 'refusal' ? (
        <Note key={entry.id} text="The model declined to answer this. While the message stays in the conversation it may go on declining: take it back to change it." />
      ) : entry.reason === 'max_tokens' ? (
        // Else the answer just stops mid-sentence, with nothing to say it was cut.
        <Note key={entry.id} text="The answer reached the output limit and was cut off; send a message (“go on”) to continue it." />
      ) : entry.reason === 'context_window' ? (
        // The window is full: a message sent as it is would not fit either, so compacting comes first.
        <Note key={entry.id} text="The answer was cut off: the conversation filled the model's context window. /compact it, then send a message (“go on”) to continue the answer." />
      ) : null
    default:
      return null
  }
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
          const answers = [...document.querySelectorAll<HTMLElement>(`.conversation ${ANSWERS_SELECTOR}`)]
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
function Checkpoint({ sessionId, entry, range }: { sessionId: string; entry: EntryView; range: SummarisedWords | null }) {
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
            {!sizes.after.measured && ' (estimated until the next pass measures it)'}
          </span>
        )}
      </div>
      <div className="muted checkpoint-detail">
        {entry.stage === 'trim' ? `Trimmed ${toolResults(trimmed, 'old ')}; no summary needed.` : <span title={range?.rest ?? undefined}>{`Summarised ${range?.text ?? '0 entries'}${trimmed ? ` after trimming ${toolResults(trimmed)}` : ''}.`}</span>} The earlier entries stay in the session; the model no longer sees them.
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
      // Out of the Tab order: a stop on every message would make crossing the chat many presses longer (the answers
      // are one stop). From the keyboard, the newest message's Take back goes back one message at a time.
      <button type="button" className="take-back take-back-earlier" onClick={() => setAsking(true)} title={title} tabIndex={-1}>
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
function TakenBack({ entries, context }: { entries: ReadonlyArray<EntryView>; context: EntryContext }) {
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
        <div className="taken-back-entries">{entries.map((entry) => drawEntry(entry, context))}</div>
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

/** "1 tool result", "3 old tool results". */
const toolResults = (n: number, old = '') => `${n} ${old}tool result${n === 1 ? '' : 's'}`
