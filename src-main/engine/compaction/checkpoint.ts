/**
 * From a draft to the checkpoint entry (docs/compaction.md "Applying: what happens at a checkpoint"): the view the
 * model sees from then on (checkpoint.ts in conversation/), the head message with the summary (possibly edited by the
 * user), the files offered back and the pins re-injected, and the record of what was trimmed, replaced and
 * re-injected with tokens and cost.
 *
 * Refused when the session moved on since the draft (a new message would be lost behind the head), when the new
 * history would not be valid for the API, or when it would not be smaller than before.
 */
import type { CheckpointBody, CheckpointView } from '../conversation/checkpoint'
import type { Entry, EntryId } from '../conversation/entries'
import { HistoryCache, modelView } from '../conversation/history'
import type { TextBlock, WireMessage } from '../model/wire'
import type { HistoryMessage } from '../prompt/input'
import { messagesTokens } from './estimate'
import { buildHead, pinsBlock, type ReofferedFile } from './head'
import { checkPins, normaliseForPin, type Pin, type PinCheck } from './pins'
import type { CompactionDraft } from './run'
import { historyProblems } from './validate'

export interface ComposeInput {
  readonly draft: CompactionDraft
  /** The session's entries now. */
  readonly entries: ReadonlyArray<Entry>
  /** The summary as the user edited it; the draft's otherwise. */
  readonly summary?: string
  readonly files: ReadonlyArray<ReofferedFile>
  readonly pins: ReadonlyArray<Pin>
  /** The system blocks as they will be after the session block is frozen again (pins found there are kept). */
  readonly systemText: string
  readonly sessionBlock: CheckpointBody['reinjected']['sessionBlock']
}

export type ComposeResult =
  | { readonly ok: true; readonly body: CheckpointBody; readonly pins: ReadonlyArray<PinCheck>; readonly history: ReadonlyArray<HistoryMessage> }
  | { readonly ok: false; readonly code: 'stale' | 'would_not_shrink' | 'invalid' | 'empty_summary'; readonly reason: string }

/** Entries the model sees (or that change what it sees): one of these after the draft makes the draft stale. */
const MODEL_KINDS: ReadonlySet<Entry['kind']> = new Set(['user_message', 'assistant_message', 'tool_result', 'context_edit', 'checkpoint'])

export function messageText(message: WireMessage): string {
  return message.content
    .map((b) => {
      switch (b.type) {
        case 'text':
          return b.text
        case 'tool_result':
          return typeof b.content === 'string' ? b.content : b.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
        case 'tool_use':
          return JSON.stringify(b.input ?? null)
        default:
          return ''
      }
    })
    .join('\n')
}

/** Why a stale draft is refused, said without advice: the caller says what to do (the Compaction view's card). */
export const STALE_REASON = 'The conversation changed after this compaction was prepared: a checkpoint made from it would leave out what came since'

/**
 * Whether a draft can no longer be applied as it stands: the model has seen (or will see) something the draft did
 * not, so a checkpoint made from it would lose that behind its head. A pin or a notice since does not count.
 */
export function draftStale(draft: Pick<CompactionDraft, 'basedOn'>, entries: ReadonlyArray<Entry>): boolean {
  const added = entries.slice(draft.basedOn.entries)
  return entries.length < draft.basedOn.entries || entries[draft.basedOn.entries - 1]?.id !== (draft.basedOn.lastEntryId ?? undefined) || added.some((e) => MODEL_KINDS.has(e.kind))
}

export function composeCheckpoint(input: ComposeInput): ComposeResult {
  const { draft, entries } = input
  if (draftStale(draft, entries)) return { ok: false, code: 'stale', reason: `${STALE_REASON}.` }
  const view = modelView(entries)
  const history = new HistoryCache().fromView(view)
  if (history[draft.splitIndex]?.provenance.entryIds[0] !== draft.splitEntryId) return { ok: false, code: 'stale', reason: `${STALE_REASON}.` }
  const kept = history.slice(draft.splitIndex)
  const keptIds = new Set(kept.flatMap((m) => m.provenance.entryIds))
  const replaced = [...view.replaced].map(([entryId, r]) => ({ entryId: entryId as EntryId, content: r.content }))
  const notes = [...draft.notes]

  let viewOut: CheckpointView
  let pinChecks: PinCheck[]
  let summary: string | null = null
  let offered: ReofferedFile[] = []
  const blockDelta = input.sessionBlock ? input.sessionBlock.tokensAfter - input.sessionBlock.tokensBefore : 0
  const keptTokens = messagesTokens(kept.map((m) => m.message))
  const shrinks = (head: ReadonlyArray<TextBlock>) => draft.tokens.overhead + blockDelta + keptTokens + messagesTokens([{ role: 'user', content: head }]) < draft.tokens.before.estimated
  if (draft.stage === 'trim') {
    const trimmed = new Map(draft.trimEdits.map((e) => [e.entryId as string, e.content ?? '']))
    const allReplaced = [...replaced.filter((r) => !trimmed.has(r.entryId)), ...draft.trimEdits.map((e) => ({ entryId: e.entryId, content: e.content ?? '' }))]
    const previousHead = view.checkpoint?.view.head ?? null
    const base: CheckpointView = { head: previousHead, startEntryId: (view.entries[0]?.id ?? null) as EntryId | null, replaced: allReplaced, dropped: [...view.dropped] as EntryId[] }
    const shown = historyFor(entries, base).map((m) => messageText(m.message)).join('\n')
    const { checks, reinject } = checkPins(input.pins, { keptText: normaliseForPin(`${input.systemText}\n${shown}`), keptEntryIds: new Set<string>(), summaryText: '' })
    pinChecks = checks
    viewOut = reinject.length > 0 ? { ...base, head: [...(previousHead ?? []), pinsBlock(reinject)] } : base
  } else {
    summary = (input.summary ?? draft.summary ?? '').trim()
    if (summary === '') return { ok: false, code: 'empty_summary', reason: 'The summary is empty.' }
    const keptText = normaliseForPin(`${input.systemText}\n${kept.map((m) => messageText(m.message)).join('\n')}\n${input.files.map((f) => f.text ?? '').join('\n')}`)
    const summaryText = normaliseForPin(`${draft.firstRequest ?? ''}\n${summary}\n${draft.latestRequest ?? ''}`)
    const { checks, reinject } = checkPins(input.pins, { keptText, keptEntryIds: keptIds, summaryText })
    pinChecks = checks
    const headWith = (files: ReadonlyArray<ReofferedFile>) =>
      buildHead({
        trigger: draft.request.trigger,
        focus: draft.request.focus,
        keptSteps: draft.keptSteps,
        firstRequest: draft.firstRequest,
        latestRequest: draft.latestRequest,
        summary: summary!,
        files,
        pins: reinject,
      })
    // The files offered back must not make the compaction pointless: on a small session they can be most of what
    // was summarised. The least recent ones are named instead of shown until the context shrinks.
    offered = [...input.files]
    let head = headWith(offered)
    for (let i = offered.length - 1; i >= 0 && !shrinks(head); i--) {
      if (offered[i]!.text === null) continue
      offered[i] = { ...offered[i]!, text: null }
      head = headWith(offered)
    }
    const startAt = entries.findIndex((e) => e.id === draft.splitEntryId)
    const laterIds = new Set(entries.slice(startAt).map((e) => e.id as string))
    viewOut = {
      head,
      startEntryId: draft.splitEntryId,
      replaced: replaced.filter((r) => keptIds.has(r.entryId)),
      dropped: ([...view.dropped] as EntryId[]).filter((id) => laterIds.has(id)),
    }
  }
  for (const c of pinChecks) if (c.status === 'lost') notes.push(`Pin “${c.pin.text.slice(0, 80)}” did not survive: it is too long to re-inject.`)

  // The history the next pass will send, checked before anything is written.
  const after = historyFor(entries, viewOut)
  const problems = historyProblems(after.map((m) => m.message))
  if (problems.length > 0) return { ok: false, code: 'invalid', reason: `The compacted history would not be valid: ${problems[0]}.` }
  const afterTokens = draft.tokens.overhead + blockDelta + messagesTokens(after.map((m) => m.message))
  if (afterTokens >= draft.tokens.before.estimated) {
    return {
      ok: false,
      code: 'would_not_shrink',
      reason: `Compaction refused: the context would not shrink (≈${afterTokens.toLocaleString('en-US')} tokens after, ≈${draft.tokens.before.estimated.toLocaleString('en-US')} before).`,
    }
  }
  const body: CheckpointBody = {
    kind: 'checkpoint',
    trigger: draft.request.trigger,
    focus: draft.request.focus,
    instructions: draft.request.instructions,
    stage: draft.stage,
    view: viewOut,
    summary,
    summaryEdited: draft.stage === 'summary' && input.summary !== undefined && input.summary.trim() !== (draft.summary ?? '').trim(),
    summaryForm: draft.form,
    trimmed: draft.trims,
    replaced: draft.replaced,
    reinjected: {
      files: draft.stage === 'summary' ? offered.map((f) => ({ path: f.path, tokens: f.tokens, offered: f.text === null ? ('path_only' as const) : ('content' as const) })) : [],
      pins: pinChecks.map((c) => ({ pinId: c.pin.pinId, status: c.status })),
      sessionBlock: input.sessionBlock,
    },
    tokens: {
      before: draft.tokens.before,
      after: { estimated: afterTokens },
      windowTokens: draft.tokens.windowTokens,
      targetTokens: draft.tokens.targetTokens,
    },
    costUsd: draft.costUsd,
    summaryPassIds: draft.passes.map((p) => p.passId),
    notes,
  }
  return { ok: true, body, pins: pinChecks, history: after }
}

/** The history the model would see with a checkpoint of `view` appended to `entries`. */
export function historyFor(entries: ReadonlyArray<Entry>, view: CheckpointView): HistoryMessage[] {
  const last = entries.at(-1)
  const provisional = { kind: 'checkpoint', view, id: 'pending', sessionId: last?.sessionId ?? '', seq: (last?.seq ?? 0) + 1, at: 0 } as unknown as Entry
  return new HistoryCache().fromView(modelView([...entries, provisional]))
}
