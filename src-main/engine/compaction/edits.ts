/**
 * Context edits (docs/compaction.md "Context edits and extension points"): what a `context` extension may change,
 * checked before anything is applied. An edit names a visible, editable entry; a tool result may be replaced but not
 * dropped (its call would lose its answer); an assistant message that calls tools may be neither (its results would
 * lose their call). A batch whose result the API would refuse is refused whole.
 */
import type { ContextEditRecord } from '../conversation/checkpoint'
import type { Entry, EntryId } from '../conversation/entries'
import { HistoryCache, type ModelView } from '../conversation/history'
import type { HistoryMessage } from '../prompt/input'
import type { ContextEdit, ContextEntryView } from './extensions'
import { historyProblems } from './validate'

function entryText(entry: Entry, view: ModelView): string {
  const replaced = view.replaced.get(entry.id)
  if (replaced !== undefined) return replaced.content
  switch (entry.kind) {
    case 'tool_result':
      return entry.content
    case 'user_message':
      return entry.content.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n')
    case 'assistant_message':
      return entry.content.map((b) => (b.type === 'text' ? b.text : '')).filter((t) => t !== '').join('\n')
    default:
      return ''
  }
}

/** The visible entries that carry content, as a context builder sees them. */
export function contextEntries(view: ModelView, editable: (entry: Entry) => boolean): ContextEntryView[] {
  const calls = new Map<string, { name: string; input: unknown }>()
  for (const e of view.entries) {
    if (e.kind === 'assistant_message') for (const b of e.content) if (b.type === 'tool_use') calls.set(b.id, { name: b.name, input: b.input })
  }
  const out: ContextEntryView[] = []
  for (const e of view.entries) {
    if (e.kind !== 'tool_result' && e.kind !== 'user_message' && e.kind !== 'assistant_message') continue
    out.push({
      entryId: e.id,
      kind: e.kind,
      text: entryText(e, view),
      call: e.kind === 'tool_result' ? (calls.get(e.toolUseId) ?? null) : null,
      hasToolUse: e.kind === 'assistant_message' && e.content.some((b) => b.type === 'tool_use'),
      editable: editable(e),
    })
  }
  return out
}

export interface EditReview {
  readonly accepted: ReadonlyArray<ContextEditRecord>
  readonly refused: ReadonlyArray<{ readonly edit: ContextEdit; readonly reason: string }>
}

export function reviewEdits(entries: ReadonlyArray<ContextEntryView>, edits: ReadonlyArray<ContextEdit>): EditReview {
  const byId = new Map(entries.map((e) => [e.entryId as string, e]))
  const accepted: ContextEditRecord[] = []
  const refused: Array<{ edit: ContextEdit; reason: string }> = []
  const touched = new Set<string>()
  for (const edit of edits) {
    const target = byId.get(edit.entryId)
    const refuse = (reason: string) => refused.push({ edit, reason })
    if (target === undefined) refuse('the model does not see this entry')
    else if (!target.editable) refuse('the entry sits above a cache breakpoint (it may change only at a compaction)')
    else if (touched.has(edit.entryId)) refuse('the entry is edited twice in one batch')
    else if (edit.action === 'drop' && target.kind === 'tool_result') refuse('a tool result cannot be dropped (its call would lose its answer); replace it instead')
    else if (target.kind === 'assistant_message' && target.hasToolUse) refuse('an assistant message that calls tools cannot be edited')
    else if (edit.action === 'replace' && (typeof edit.content !== 'string' || edit.content.trim() === '')) refuse('a replacement needs non-empty content')
    else {
      touched.add(edit.entryId)
      accepted.push({ entryId: edit.entryId as EntryId, action: edit.action, ...(edit.action === 'replace' ? { content: edit.content! } : {}), reason: edit.reason })
    }
  }
  return { accepted, refused }
}

/** The view with `edits` applied on top, as if they were a context_edit entry named `by`. */
export function viewWithEdits(view: ModelView, edits: ReadonlyArray<ContextEditRecord>, by: string): ModelView {
  const replaced = new Map(view.replaced)
  const dropped = new Set(view.dropped)
  for (const e of edits) {
    if (e.action === 'drop') dropped.add(e.entryId)
    else if (e.content !== undefined) replaced.set(e.entryId, { content: e.content, by })
  }
  return { ...view, replaced, dropped, entries: view.entries.filter((e) => !dropped.has(e.id)) }
}

/** The history the edited view gives, or the API's objections to it. */
export function historyAfterEdits(view: ModelView, edits: ReadonlyArray<ContextEditRecord>, by: string): { history: HistoryMessage[]; problems: string[] } {
  const history = new HistoryCache().fromView(viewWithEdits(view, edits, by))
  return { history, problems: historyProblems(history.map((m) => m.message)) }
}
