/**
 * What the loop adds around each pass from a project's extensions (docs/compaction.md
 * "Context edits and extension points") and the context size the compaction policy reads:
 * - the context size now: the real count of the last response plus an estimate of what was added since;
 * - a project `context` builder's edits before a pass, only on entries no pass has sent yet (so no edit lands
 *   above a cache breakpoint), recorded as a context_edit entry;
 * - context sections after the breakpoints (from an extension's state, or rendered under a short deadline) and a
 *   memory extension's recall.
 */
import type { Entry } from '../../engine/conversation/entries'
import { modelView } from '../../engine/conversation/history'
import { contextEntries, historyAfterEdits, reviewEdits, type ContextBuilder, type ExtensionCallContext } from '../../engine/compaction'
import { calibrate } from '../../engine/compaction/estimate'
import type { CompactionSettings } from '../../engine/compaction/settings'
import { estimateTokens } from '../../engine/prompt/estimate'
import type { ExtraSection } from '../../engine/prompt/sections'
import type { PassSummary } from '../store/passes'
import type { LoadedExtensions } from '../compaction/extensions'
import type { StoreSessionLog } from './store-log'

function entryTokens(e: Entry): number {
  switch (e.kind) {
    case 'tool_result':
      return estimateTokens(e.content) + (e.notes ?? []).reduce((n, note) => n + estimateTokens('text' in note ? note.text : ''), 0)
    case 'user_message':
      return e.content.reduce((n, b) => n + (b.type === 'text' ? estimateTokens(b.text) : 1600), 0)
    default:
      return 0
  }
}

/** Where the last measured pass's answer sits in the log; -1 when it is not there or a checkpoint came after. */
function measuredAt(entries: ReadonlyArray<Entry>, last: PassSummary | null): number {
  if (last === null || last.usage === null) return -1
  const at = entries.findIndex((e) => e.kind === 'assistant_message' && e.passId === last.id)
  if (at < 0) return -1
  // A checkpoint or an edit after that pass changed what the model sees: its count no longer applies.
  return entries.slice(at + 1).some((e) => e.kind === 'checkpoint' || e.kind === 'context_edit') ? -1 : at
}

/** The context size now: `real` when the last response measured it (plus what was added since), else an estimate. */
export function contextTokensNow(entries: ReadonlyArray<Entry>, last: PassSummary | null, estimate: () => number = () => 0): { tokens: number; real: number | null } {
  const at = measuredAt(entries, last)
  if (at < 0 || last?.usage == null) return { tokens: estimate(), real: null }
  const u = last.usage
  let n = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens
  for (const e of entries.slice(at + 1)) n += entryTokens(e)
  return { tokens: n, real: n }
}

/**
 * A checkpoint's context sizes before and after, on one basis: what the next pass sends (or would have sent) at the
 * moment of the checkpoint. Before is the checkpoint's own figure, the one the threshold is checked against: the last
 * pass's input and answer plus what was added since. After is the first main pass after it as measured, less what
 * was added between the checkpoint and that pass (the user's next message: it is no effect of the compaction);
 * until that pass runs, the checkpoint's estimate brought to the scale of the real count, as the policy does.
 * A pass's input alone against that before would count the last answer on one side only.
 */
export function checkpointContext(entries: ReadonlyArray<Entry>, checkpointIndex: number, passes: ReadonlyArray<PassSummary>): CheckpointContext {
  const checkpoint = entries[checkpointIndex]
  if (checkpoint === undefined || checkpoint.kind !== 'checkpoint') throw new Error('checkpointContext: not a checkpoint')
  const { before, after } = checkpoint.tokens
  const main = passes.filter((p) => p.kind === 'main' && p.usage !== null)
  const previous = main.filter((p) => p.queuedAt < checkpoint.at).at(-1) ?? null
  const beforeSide = { tokens: before.real ?? before.estimated, measured: before.real !== null, passSeq: before.real !== null ? (previous?.seq ?? null) : null }
  const next = main.find((p) => p.queuedAt >= checkpoint.at)
  if (next === undefined || next.usage === null) {
    return { before: beforeSide, after: { tokens: calibrate(after.estimated, before.real, before.estimated), measured: false, passSeq: null, addedSince: 0 } }
  }
  const u = next.usage
  // What that pass sent that came after the checkpoint: the entries up to its answer (or, with none, up to its start).
  const answer = entries.findIndex((e, i) => i > checkpointIndex && e.kind === 'assistant_message' && e.passId === next.id)
  const since = answer >= 0 ? entries.slice(checkpointIndex + 1, answer) : entries.slice(checkpointIndex + 1).filter((e) => e.at <= next.queuedAt)
  const addedSince = since.reduce((n, e) => n + entryTokens(e), 0)
  const input = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
  return { before: beforeSide, after: { tokens: Math.max(0, input - addedSince), measured: true, passSeq: next.seq, addedSince } }
}

export interface CheckpointContext {
  readonly before: { readonly tokens: number; readonly measured: boolean; readonly passSeq: number | null }
  /** `addedSince`: the estimated tokens of what came after the checkpoint and before its first pass, taken out. */
  readonly after: { readonly tokens: number; readonly measured: boolean; readonly passSeq: number | null; readonly addedSince: number }
}

/** A project context builder's edits of the entries not sent yet, appended as one context_edit entry. */
export async function perPassEdits(
  log: StoreSessionLog,
  builder: ContextBuilder,
  settings: CompactionSettings,
  last: PassSummary | null,
  ctx: ExtensionCallContext,
): Promise<ReadonlyArray<Entry>> {
  // The built-in edits nothing between compactions.
  if (builder.name === 'trim-old-tools') return []
  const entries = log.entries()
  const view = modelView(entries)
  const sentUpTo = last === null ? -1 : entries.findIndex((e) => e.kind === 'assistant_message' && e.passId === last.id)
  const checkpointAt = view.checkpoint === null ? -1 : entries.indexOf(view.checkpoint)
  const from = Math.max(sentUpTo, checkpointAt)
  const fresh = new Set(entries.slice(from + 1).map((e) => e.id as string))
  const views = contextEntries(view, (e) => fresh.has(e.id))
  let proposed
  try {
    proposed = await builder.edits({ phase: 'pass', entries: views, settings }, ctx)
  } catch (err) {
    return log.append([{ kind: 'notice', source: 'extension', level: 'warning', text: `The context extension ${builder.name} failed (${err instanceof Error ? err.message : String(err)}); no edits this pass.` }])
  }
  const review = reviewEdits(views, proposed)
  const out: Entry[] = []
  if (review.refused.length > 0) {
    out.push(...log.append([{ kind: 'notice', source: 'extension', level: 'warning', text: `The context extension ${builder.name}: ${review.refused.length} edit(s) refused (${review.refused[0]!.reason}).` }]))
  }
  if (review.accepted.length === 0) return out
  const problems = historyAfterEdits(view, review.accepted, 'pending').problems
  if (problems.length > 0) {
    out.push(...log.append([{ kind: 'notice', source: 'extension', level: 'warning', text: `The context extension ${builder.name}: edits refused, the history would be invalid (${problems[0]}).` }]))
    return out
  }
  out.push(...log.append([{ kind: 'context_edit', source: builder.name, edits: review.accepted }]))
  return out
}

const SECTION_REASON = "an extension's context section, recomputed before each pass; it sits after every breakpoint"

/** Wrapped in a tag, so neither the model nor a reader takes the app's text for the user's words. */
function wrap(name: string, text: string): string {
  return `<context-section name="${name.replace(/[^\w:.-]/g, '_')}">\n${text.trim()}\n</context-section>`
}

/** The extensions' context sections for the next pass; a section that fails or runs late is left out. */
export async function collectSections(
  loaded: LoadedExtensions,
  entries: ReadonlyArray<Entry>,
  ctx: ExtensionCallContext,
): Promise<{ sections: ExtraSection[]; failures: Array<{ name: string; message: string }> }> {
  const sections: ExtraSection[] = []
  const failures: Array<{ name: string; message: string }> = []
  const passNumber = entries.filter((e) => e.kind === 'assistant_message').length + 1
  for (const provider of loaded.sections) {
    try {
      const text = await provider.section({ passNumber }, ctx)
      if (text !== null && text.trim() !== '') sections.push({ name: `ext:${provider.name}`, stability: 'volatile', placement: 'tail', text: wrap(provider.name, text), reason: SECTION_REASON })
    } catch (err) {
      failures.push({ name: provider.name, message: `The context section ${provider.name} was left out (${err instanceof Error ? err.message : String(err)}).` })
    }
  }
  const recall = loaded.memory.recall
  if (recall) {
    const newest = [...entries].reverse().find((e) => e.kind === 'user_message')
    const newestText = newest?.kind === 'user_message' ? newest.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n') : ''
    try {
      const text = await recall.call(loaded.memory, { newestText }, ctx)
      if (text !== null && text.trim() !== '') sections.push({ name: `ext:${loaded.memory.name}:recall`, stability: 'volatile', placement: 'tail', text: wrap(`${loaded.memory.name}:recall`, text), reason: SECTION_REASON })
    } catch (err) {
      failures.push({ name: `${loaded.memory.name}:recall`, message: `The memory recall of ${loaded.memory.name} was left out (${err instanceof Error ? err.message : String(err)}).` })
    }
  }
  return { sections, failures }
}
