/**
 * What a window is sent of a session's entries (decision 0039). A session that went on for days holds tens of
 * thousands of entries, megabytes the window would parse before it draws the newest few; it is sent the newest
 * `SESSION_WINDOW_ENTRIES` and asks for earlier ones as it shows them. With them come the few earlier entries the
 * views read across the whole session (the cache timeline's markers), and the positions of the entries that the
 * sent checkpoints name (a summarised range's ends), so nothing drawn says less for being early.
 */
import { ENTRIES_BEFORE_ANSWER, MAX_ENTRIES_PAGE, SESSION_WINDOW_ENTRIES } from '../../../src-preload/limits'
import type { Entry } from './entries'
import { TAKE_BACK_SOURCE } from './take-back'

export interface EntriesPage {
  readonly entries: ReadonlyArray<Entry>
  /** How many entries come before the first sent (positions 1 … earlier). */
  readonly earlier: number
  /** Positions of entries that sent checkpoints name and that were not sent themselves. */
  readonly seqs: Readonly<Record<string, number>>
}

export interface EntriesWindow extends EntriesPage {
  /**
   * Entries before the window that mark the session's course: checkpoints, context edits (with the message a
   * take-back took back), model switches, instruction files applied now. The cache timeline marks them.
   */
  readonly landmarks: ReadonlyArray<Entry>
}

/** The newest `count` entries of a session, with its landmarks before them. `entries` is the session in order. */
export function newestEntries(entries: ReadonlyArray<Entry>, count = SESSION_WINDOW_ENTRIES): EntriesWindow {
  const start = Math.max(0, entries.length - count)
  const sent = entries.slice(start)
  const before = entries.slice(0, start)
  const landmarks = landmarksOf(before)
  return { entries: sent, earlier: start, landmarks, seqs: namedSeqs(entries, [...landmarks, ...sent]) }
}

/**
 * Entries before position `beforeSeq`: the `limit` nearest it, or, with `fromEntryId`, every one from that entry
 * on, or, with `throughPassId`, every one from a few before that pass's answer on (up to MAX_ENTRIES_PAGE; an id the
 * session does not hold before the position is answered as `limit`).
 */
export function entriesBefore(entries: ReadonlyArray<Entry>, beforeSeq: number, options: { readonly limit: number; readonly fromEntryId?: string; readonly throughPassId?: string }): EntriesPage {
  const end = lowerBound(entries, beforeSeq)
  const answer = options.throughPassId === undefined ? -1 : entries.findLastIndex((e, i) => i < end && e.kind === 'assistant_message' && e.passId === options.throughPassId)
  const from = answer >= 0 ? Math.max(0, answer - ENTRIES_BEFORE_ANSWER) : options.fromEntryId === undefined ? -1 : entries.findIndex((e) => e.id === options.fromEntryId)
  const wanted = from >= 0 && from < end ? end - from : options.limit
  const start = Math.max(0, end - Math.min(wanted, MAX_ENTRIES_PAGE))
  const sent = entries.slice(start, end)
  return { entries: sent, earlier: start, seqs: namedSeqs(entries, sent) }
}

/**
 * The positions of the entries that the checkpoints among `appended` name, other than those appended: a checkpoint
 * written while a window is open names a range that may start before every entry the window read, and its card
 * gives that range's numbers. Empty when no checkpoint is among them; the session's entries (`all`) are read only
 * when one is, not at every append.
 */
export function appendedSeqs(all: () => ReadonlyArray<Entry>, appended: ReadonlyArray<Entry>): Readonly<Record<string, number>> {
  return appended.some((e) => e.kind === 'checkpoint') ? namedSeqs(all(), appended) : {}
}

/** The index of the first entry at or after position `seq` (entries are in order of position). */
function lowerBound(entries: ReadonlyArray<Entry>, seq: number): number {
  let lo = 0
  let hi = entries.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (entries[mid]!.seq < seq) lo = mid + 1
    else hi = mid
  }
  return lo
}

function landmarksOf(entries: ReadonlyArray<Entry>): Entry[] {
  const byId = new Map(entries.map((e) => [e.id as string, e]))
  const out: Entry[] = []
  for (const e of entries) {
    if (e.kind === 'checkpoint' || e.kind === 'model_switched' || (e.kind === 'notice' && e.source === 'instructions')) out.push(e)
    else if (e.kind === 'context_edit') {
      // The timeline names a take-back by the message it took back.
      const taken = e.source === TAKE_BACK_SOURCE ? byId.get(e.edits[0]?.entryId ?? '') : undefined
      if (taken && !out.includes(taken)) out.push(taken)
      out.push(e)
    }
  }
  return out.sort((a, b) => a.seq - b.seq)
}

/** The positions of the entries the sent checkpoints name, among those not sent. */
function namedSeqs(all: ReadonlyArray<Entry>, sent: ReadonlyArray<Entry>): Record<string, number> {
  const sentIds = new Set(sent.map((e) => e.id as string))
  const named = new Set<string>()
  for (const e of sent) {
    if (e.kind !== 'checkpoint') continue
    for (const id of [e.replaced?.fromEntryId, e.replaced?.toEntryId, e.view.startEntryId]) if (id && !sentIds.has(id)) named.add(id)
  }
  const seqs: Record<string, number> = {}
  if (named.size === 0) return seqs
  for (const e of all) if (named.has(e.id)) seqs[e.id] = e.seq
  return seqs
}
