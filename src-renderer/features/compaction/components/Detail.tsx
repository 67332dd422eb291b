/**
 * An opened card: for a checkpoint, what was summarised and kept, the focus, what was offered again, the summary,
 * and the before/after diff; for a dry run's draft, the summary in an editor and the history it would make, with
 * Apply and Discard.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { EntryView } from '../../../../src-preload/contract'
import type { Monaco } from '../../../monaco'
import { selectCompactions, useCompactionStore, type CheckpointRecord, type DraftView } from '../../../state/compaction'
import { MarkdownEditor } from '../../files/components/MarkdownEditor'
import { clock, dateTime, grouped as n, usd } from '../../../ui/format'
import { useSlow } from '../../palette/use-slow'
import { applyDraft, compactNow, discardDraft } from '../actions'
import { useHistoryPair } from '../data/use-history-pair'
import { HistoryDiff } from './HistoryDiff'
import type { Mark } from '../model/history-text'
import { shortFocus } from './LiveProgress'
import { checkpointSizes, draftSizes, sizesExplained } from '../model/sizes'
import { summarisedWords } from '../model/summarised'
import { copyText } from '../../../ui/clipboard'
import { selectChat, useChatStore } from '../../../state/chat'
import { loadEarlierEntries } from '../../chat/actions'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

/** The diff's shadings, in the legend's order, with their words. */
const LEGEND_KEYS: ReadonlyArray<readonly [Exclude<Mark, 'kept'>, string]> = [
  ['summarised', 'summarised'],
  ['trimmed', 'trimmed by stage 1'],
  ['summary', 'summary head'],
]

/** The legend names only the shadings the diff shows: a compaction that trimmed nothing has no "trimmed" key. */
function Legend({ afterIsPreview, beforeSeq, afterSeq, marks }: { afterIsPreview: boolean; beforeSeq: number | null; afterSeq: number | null; marks: ReadonlySet<Mark> }) {
  return (
    <p className="cmp-legend small">
      <span>
        Before: {beforeSeq !== null ? `pass ${beforeSeq}, the last before` : 'the history before'}. After:{' '}
        {afterIsPreview ? 'what the next pass will send (from the entries, with the session context the pass before sent, unchanged)' : `pass ${afterSeq}, the first after`}.
      </span>
      {LEGEND_KEYS.filter(([mark]) => marks.has(mark)).map(([mark, words]) => (
        <span key={mark} className={`cmp-key ${mark}`}>
          {words}
        </span>
      ))}
    </p>
  )
}

function PairView({ monaco, sessionId, subject, entries }: { monaco: Monaco; sessionId: string; subject: Parameters<typeof useHistoryPair>[1]; entries: ReadonlyArray<EntryView> }) {
  const { pair, error, loading } = useHistoryPair(sessionId, subject, entries)
  const slow = useSlow(loading)
  if (error) return <p className="error-box">Could not load the passes around this compaction: {error}</p>
  if (!pair) return <p className="muted">{slow ? 'Loading the passes around this compaction…' : ''}</p>
  return (
    <>
      <Legend afterIsPreview={pair.afterIsPreview} beforeSeq={pair.beforePassSeq} afterSeq={pair.afterPassSeq} marks={new Set([...pair.before.ranges, ...pair.after.ranges].map((r) => r.mark))} />
      <HistoryDiff monaco={monaco} before={pair.before} after={pair.after} pairKey={subject ? (subject.kind === 'checkpoint' ? subject.record.checkpoint.id : subject.draft.draftId) : ''} />
    </>
  )
}

/**
 * `takeFocus`: the keyboard comes here, to the heading, as the detail shows (the dry run applied from the keyboard
 * went away with its Apply button); `onFocused` says it has.
 */
export function CheckpointDetail({
  monaco,
  sessionId,
  record,
  entries,
  takeFocus = false,
  onFocused,
}: {
  monaco: Monaco
  sessionId: string
  record: CheckpointRecord
  entries: ReadonlyArray<EntryView>
  takeFocus?: boolean
  onFocused?: () => void
}) {
  const heading = useRef<HTMLHeadingElement>(null)
  useLayoutEffect(() => {
    if (!takeFocus) return
    heading.current?.focus()
    onFocused?.()
  }, [takeFocus, onFocused])
  const c = record.checkpoint as EntryView & Record<string, unknown>
  const seqs = useChatStore(selectChat(sessionId)).seqs
  const seq = (id: unknown) => entries.find((e) => e.id === id)?.seq ?? (typeof id === 'string' ? seqs[id] : undefined)
  const replaced = isRecord(c.replaced) ? c.replaced : null
  const view = isRecord(c.view) ? c.view : {}
  // The history the checkpoint replaced and kept is compared entry by entry: read from the host if the window has
  // not read that far back yet (decision 0039).
  const firstCompared = replaced && typeof replaced.fromEntryId === 'string' ? replaced.fromEntryId : typeof view.startEntryId === 'string' ? view.startEntryId : null
  useEffect(() => {
    if (firstCompared !== null) void loadEarlierEntries(sessionId, firstCompared)
  }, [sessionId, firstCompared])
  const reinjected = isRecord(c.reinjected) ? c.reinjected : {}
  const files = Array.isArray(reinjected.files) ? reinjected.files.filter(isRecord) : []
  const pins = Array.isArray(reinjected.pins) ? reinjected.pins.filter(isRecord) : []
  const sessionPins = useCompactionStore((s) => selectCompactions(sessionId)(s).pins)
  const pinTexts = useMemo(() => new Map(sessionPins.map((p) => [p.pinId, p.text])), [sessionPins])
  const block = isRecord(reinjected.sessionBlock) ? reinjected.sessionBlock : null
  const notes = Array.isArray(c.notes) ? c.notes.map(String) : []
  const summary = typeof c.summary === 'string' ? c.summary : null
  const startSeq = seq(view.startEntryId)
  const range = replaced ? summarisedWords({ entries: Number(replaced.entries), fromEntryId: typeof replaced.fromEntryId === 'string' ? replaced.fromEntryId : null, toEntryId: typeof replaced.toEntryId === 'string' ? replaced.toEntryId : null }, seq) : null
  const subject = useMemo(() => ({ kind: 'checkpoint' as const, record }), [record])
  return (
    <article className="cmp-detail-body" data-testid="checkpoint-detail">
      {/* Focusable from script only: a landing place for the keyboard, not a Tab stop. */}
      <h2 ref={heading} tabIndex={-1}>
        Checkpoint, entry #{c.seq} · {String(c.trigger)} · {dateTime(c.at)}:{clock(c.at).slice(6)}
      </h2>
      <p data-testid="summarised-range">
        {replaced ? (
          <>
            {/* The chat card's words (model/summarised.ts): how many of the range's entries, the rest in the tooltip. */}
            <strong>Summarised</strong> <span title={range!.rest ?? undefined}>{range!.text}</span>{' '}
            (≈{n(Number(replaced.estimatedTokens))} tokens)
            {startSeq !== undefined ? `; kept whole from entry #${startSeq} on.` : '; nothing kept whole.'}
          </>
        ) : (
          <>
            <strong>Stage 1 only</strong>: old tool results were trimmed and nothing was summarised{startSeq !== undefined ? `; the history still starts at entry #${startSeq}` : ''}.
          </>
        )}
      </p>
      <p className="small" data-testid="checkpoint-sizes">
        {sizesExplained(checkpointSizes(record), false)}
      </p>
      <p data-testid="checkpoint-focus">{typeof c.focus === 'string' && c.focus ? <>Focus: “<bdi>{c.focus}</bdi>”</> : <span className="muted">No focus was given.</span>}</p>
      <ul className="cmp-facts small">
        {files.length > 0 && <li>Offered again: {files.map((f) => `${String(f.path)} (${f.offered === 'content' ? `≈${n(Number(f.tokens))} tokens` : 'path only'})`).join(', ')}</li>}
        {pins.length > 0 && (
          <li>
            Pins:{' '}
            {pins
              .map((p) => {
                // By its text: the id means nothing to the user. A pin removed since is said to be one.
                const text = pinTexts.get(String(p.pinId))
                const what = text === undefined ? 'a pin removed since' : `“${text.length > 80 ? `${text.slice(0, 80)}…` : text}”`
                return `${what} ${String(p.status).replace(/_/g, ' ')}`
              })
              .join('; ')}
          </li>
        )}
        {block && <li>Session block read again from disk: {block.changed ? `changed, ≈${n(Number(block.tokensBefore))} → ≈${n(Number(block.tokensAfter))} tokens` : 'unchanged'}</li>}
        {c.summaryEdited === true && <li>The summary was edited by the user before it was applied.</li>}
        {notes.map((note, i) => (
          <li key={i}>{note}</li>
        ))}
      </ul>
      <PairView monaco={monaco} sessionId={sessionId} subject={subject} entries={entries} />
      {summary !== null && (
        <details className="cmp-summary" open>
          <summary>The summary as applied ({n(summary.length)} characters)</summary>
          <pre data-testid="summary-text">{summary}</pre>
        </details>
      )}
    </article>
  )
}

/**
 * `onGone`: the draft was applied or discarded from here while this detail held the keyboard; it goes, and the
 * keyboard with it, so the view puts the keyboard where the user goes on from.
 */
export function DraftDetail({
  monaco,
  sessionId,
  draft,
  entries,
  onGone,
}: {
  monaco: Monaco
  sessionId: string
  draft: DraftView
  entries: ReadonlyArray<EntryView>
  onGone?: (how: 'applied' | 'discarded') => void
}) {
  const article = useRef<HTMLElement>(null)
  const applyButton = useRef<HTMLButtonElement>(null)
  // The history the draft keeps is drawn from the entries: read from the host if the window has not read them yet.
  const firstKept = draft.keptEntryIds[0] ?? null
  useEffect(() => {
    if (firstKept !== null) void loadEarlierEntries(sessionId, firstKept)
  }, [sessionId, firstKept])
  const [summary, setSummaryText] = useState(() => useCompactionStore.getState().summaryEdits[draft.draftId] ?? draft.summary ?? '')
  const setSummary = (text: string) => {
    setSummaryText(text)
    useCompactionStore.getState().summaryEdited(draft.draftId, draft.summary !== null && text !== draft.summary ? text : null)
  }
  const [busy, setBusy] = useState<'apply' | 'discard' | 'rerun' | null>(null)
  const [copied, setCopied] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  // A dry run that just finished here left the keyboard nowhere (its button was disabled while it ran): the summary
  // to read and edit takes it. One opened while the keyboard is elsewhere leaves it there.
  const [takeFocus, setTakeFocus] = useState(() => document.activeElement === null || document.activeElement === document.body)
  const slow = useSlow(busy !== null)
  const edited = draft.summary !== null && summary !== draft.summary
  // The diff and the size follow the edit, a moment after the typing stops (a diff per keystroke would lag).
  const [settled, setSettled] = useState(summary)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(summary), 300)
    return () => clearTimeout(timer)
  }, [summary])
  const subject = useMemo(() => ({ kind: 'draft' as const, draft, summary: settled }), [draft, settled])
  // The size after, with the edit: the draft's estimate moved by the edit's length (at 4 characters a token). It
  // follows the text as typed, not the settled one the diff waits for, so it is always the figure the card gives.
  const sizes = draftSizes(draft, summary.length)
  // Read before the buttons are disabled for the wait: a disabled button drops the keyboard to <body> without a
  // focusout, so neither this detail nor the page's fallback (features/shell/focus-fallback.ts) could tell later.
  const holdsKeyboard = () => article.current?.contains(document.activeElement) ?? false
  const apply = async () => {
    const hadKeyboard = holdsKeyboard()
    setBusy('apply')
    const failure = await applyDraft(sessionId, draft.draftId, edited ? summary : null)
    setBusy(null)
    setProblem(failure)
    if (!hadKeyboard) return
    // Applied, the draft is gone and its checkpoint shown: the keyboard goes to it. Not applied, back to Apply.
    if (failure === null) onGone?.('applied')
    else applyButton.current?.focus()
  }
  // Out of date: the text stays here to copy, and a new dry run (with the same focus) leaves this card as it is.
  const copy = async () => setCopied(await copyText(summary, 'Copied.'))
  const rerun = async () => {
    setBusy('rerun')
    const failure = await compactNow(sessionId, draft.focus ?? '', true)
    setBusy(null)
    setProblem(failure?.text ?? null)
  }
  const discard = async () => {
    const hadKeyboard = holdsKeyboard()
    setBusy('discard')
    try {
      await discardDraft(sessionId, draft.draftId)
    } finally {
      setBusy(null)
    }
    if (hadKeyboard) onGone?.('discarded')
  }
  return (
    <article ref={article} className="cmp-detail-body" data-testid="draft-detail">
      <h2>{draft.stale ? 'Dry run · out of date, not applied' : 'Dry run · nothing has changed yet'}</h2>
      {draft.stale && (
        <div className="warn-box" role="alert" data-testid="draft-stale">
          <strong>The conversation moved on since this dry run:</strong> its summary leaves out what was said since, so it can no longer be applied.
          {draft.summary !== null && (edited ? ' Your edited summary stays here until you discard this dry run: copy what you wrote to keep it. A new dry run summarises the whole conversation.' : ' Run the dry run again for a summary of the whole conversation.')}{' '}
          {draft.summary !== null && (
            <button type="button" onClick={() => void copy()}>
              {edited ? 'Copy my text' : 'Copy the summary'}
            </button>
          )}{' '}
          <button type="button" disabled={busy !== null} onClick={() => void rerun()} title={draft.focus ? `A new dry run, with the focus “${draft.focus}”; this one stays until you discard it` : 'A new dry run; this one stays until you discard it'}>
            {busy === 'rerun' && slow ? 'Writing the draft…' : 'Run the dry run again'}
          </button>
          {copied && <span className="muted small"> {copied}</span>}
        </div>
      )}
      <p data-testid="draft-sizes">
        Context {sizes.before.measured ? '' : '≈'}
        {n(sizes.before.tokens)} → ≈{n(sizes.after.tokens)} tokens{edited ? ' with your edits' : ''}
        {/* The target matters only to a context above it (an automatic compaction aims there); a small one is not near it. */}
        {sizes.before.tokens > draft.tokens.targetTokens && <> (target {n(draft.tokens.targetTokens)} of a {n(draft.tokens.windowTokens)} window)</>} · the summary cost {usd(draft.costUsd)}
        {draft.focus && (
          <>
            {' '}
            · focus “<bdi title={draft.focus}>{shortFocus(draft.focus)}</bdi>”
          </>
        )}
      </p>
      {/* What each figure counts, said once, under them. */}
      <p className="small muted">{sizesExplained(sizes, true)}</p>
      {draft.notes.length > 0 && (
        <ul className="cmp-facts small">
          {draft.notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      )}
      {draft.summary !== null ? (
        <>
          <p className="small muted">{draft.stale ? 'The summary as it stands, to copy: it can no longer be applied.' : 'The summary the model wrote. Edit it before applying: what stands here is what every later pass sends.'}</p>
          <MarkdownEditor monaco={monaco} value={summary} onChange={setSummary} onSave={() => void apply()} label="Edit the summary" testId="summary-editor" takeFocus={takeFocus} onFocused={() => setTakeFocus(false)} />
        </>
      ) : (
        <p className="muted">Stage 1 reached the target alone: old tool results are trimmed and no summary is needed.</p>
      )}
      <div className="files-toolbar">
        <button ref={applyButton} type="button" className="primary" disabled={busy !== null || draft.stale === true} onClick={() => void apply()} data-testid="apply-draft" title={draft.stale ? 'The conversation moved on since this dry run: it can no longer be applied' : undefined}>
          {busy === 'apply' && slow ? 'Applying…' : edited ? 'Apply with my edits' : 'Apply'}
        </button>
        <button
          type="button"
          disabled={busy !== null}
          onClick={() => void discard()}
        >
          Discard
        </button>
        {edited && <span className="chip accent">edited</span>}
        {/* Discarding gives nothing back: the summary pass was sent, and stays in the inspector's list. */}
        {draft.costUsd !== null && <span className="muted small">The summary's {usd(draft.costUsd)} is spent either way.</span>}
        {problem && (
          <span className="error" role="alert">
            {problem}
          </span>
        )}
      </div>
      <PairView monaco={monaco} sessionId={sessionId} subject={subject} entries={entries} />
    </article>
  )
}
