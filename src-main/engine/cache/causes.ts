/**
 * Why a pass read less than the best possible hit, as a tagged union with a line of text for each case. The text
 * names the first changed block and what produced it ("system[1] · project instructions · AGENTS.md edited at 13:55,
 * applied now by the user at 14:02"), or the rule that stopped the read ("cache expired: idle 6 m 10 s, longer than the 5 m an entry is kept (TTL)").
 */
import type { FileEditTime, SnapshotOrigin } from '../prompt/snapshot'
import type { SectionPrint } from './context'
import type { CacheArea } from './walk'
import { TAKE_BACK_SOURCE } from '../conversation/take-back'
import { formatDuration } from '../../../src-preload/duration'

/** What a session entry is, as far as a cause needs to say (the adapter reads the store). */
export type EntryDescription =
  | { readonly kind: 'context_edit'; readonly entryId: string; readonly source: string; readonly at: number | null }
  | { readonly kind: 'checkpoint'; readonly entryId: string; readonly trigger: string | null; readonly at: number | null }
  | { readonly kind: 'entry'; readonly entryId: string; readonly entryKind: string; readonly at: number | null }

/** Reads the session's entries for a cause (the adapter answers from the store). */
export interface EntryDescriber {
  /** The entry itself (an apply-now, a checkpoint), or null when unknown. */
  entry(entryId: string): EntryDescription | null
  /** The context edit or checkpoint that rewrote one of a message's entries, or null. */
  editOf(entryIds: ReadonlyArray<string>): EntryDescription | null
}

export type ChangedWhat =
  | { readonly kind: 'tools'; readonly added: ReadonlyArray<string>; readonly removed: ReadonlyArray<string>; readonly changed: ReadonlyArray<string> }
  | {
      readonly kind: 'system'
      readonly block: 'static' | 'session' | null
      readonly sections: ReadonlyArray<Omit<SectionPrint, 'sha256'>>
      readonly origin: SnapshotOrigin | null
      /** When the origin's entry was written: for an apply-now, when the user applied it (not when a file was edited). */
      readonly originAt: number | null
    }
  | { readonly kind: 'message'; readonly historyKind: string | null; readonly entryIds: ReadonlyArray<string>; readonly editedBy: EntryDescription | null }
  /** tool_choice, thinking or image presence: salts the messages level (§5.3). */
  | { readonly kind: 'settings'; readonly level: 'system' | 'messages' }

export type MissCause =
  | { readonly kind: 'none'; readonly label: string }
  | { readonly kind: 'cold'; readonly label: string }
  | { readonly kind: 'changed_block'; readonly position: number; readonly path: string; readonly area: CacheArea; readonly what: ChangedWhat; readonly label: string }
  /**
   * `belowMinimum`: the prefix the previous pass left is under the new model's minimum, so that model could hold none
   * of it (the switch's price called the switch `uncacheable`): the pass is at its limit and lost nothing.
   */
  | { readonly kind: 'model_changed'; readonly from: string; readonly to: string; readonly belowMinimum?: { readonly tokens: number; readonly minimum: number }; readonly label: string }
  | { readonly kind: 'ttl_expired'; readonly idleMs: number; readonly ttlMs: number; readonly label: string }
  | { readonly kind: 'below_minimum'; readonly tokens: number; readonly minimum: number; readonly label: string }
  | { readonly kind: 'lookback_exceeded'; readonly entryPosition: number; readonly breakpointPosition: number | null; readonly distance: number | null; readonly label: string }
  | { readonly kind: 'concurrent'; readonly passId: string; readonly startedAt: number; readonly availableAt: number; readonly label: string }
  /** This pass got no response (a refused key, a connection that failed): it never reached a cache. */
  | { readonly kind: 'no_response'; readonly label: string }
  /** Nothing was ever written where a hit was possible: no breakpoint covered that prefix. */
  | { readonly kind: 'no_breakpoint'; readonly label: string }
  /** The prediction and the service disagree: the app's bug or the provider's. */
  | {
      readonly kind: 'unexplained'
      readonly predictedRead: number
      readonly actualRead: number
      readonly predictedPath: string | null
      readonly actualPath: string | null
      readonly label: string
    }

export type MissCauseKind = MissCause['kind']

export function formatTokens(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

/** HH:MM in UTC; the node side passes a local-time formatter. */
export function utcClock(at: number): string {
  const d = new Date(at)
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')} UTC`
}

const SECTION_WORDS: Readonly<Record<string, string>> = {
  project_instructions: 'project instructions',
  memory: 'memory',
  skills: 'skills list',
  base_rules: 'base rules',
  identity: 'identity line',
  features: 'feature lines',
  build_notes: 'build notes',
  session_context: 'session context',
}

function sectionWords(sections: ReadonlyArray<Omit<SectionPrint, 'sha256'>>): string {
  const names: string[] = []
  for (const s of sections) {
    const name = SECTION_WORDS[s.section] ?? s.section.replace(/_/g, ' ')
    const text = s.part ? `${name} · ${s.part}` : name
    // A file's line says more than its section's line; keep the section alone only when no file of it changed.
    if (s.part === null && sections.some((o) => o.section === s.section && o.part !== null)) continue
    if (!names.includes(text)) names.push(text)
  }
  return names.join(', ')
}

function list(names: ReadonlyArray<string>): string {
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`
}

export function changedBlockLabel(path: string, what: ChangedWhat, clock: (at: number) => string): string {
  switch (what.kind) {
    case 'tools': {
      const parts: string[] = []
      if (what.added.length) parts.push(`added ${list(what.added)}`)
      if (what.removed.length) parts.push(`removed ${list(what.removed)}`)
      if (what.changed.length) parts.push(`changed ${list(what.changed)}`)
      return `tools · the tool list changed${parts.length ? ` (${parts.join('; ')})` : ''}`
    }
    case 'system': {
      const block = what.block === 'static' ? 'static block' : what.block === 'session' ? 'session block' : 'system block'
      const at = what.originAt !== null ? ` at ${clock(what.originAt)}` : ''
      const origin = what.origin
      if (origin?.kind === 'apply_now') {
        const names = sectionWords(what.sections.filter((s) => s.part === null).length ? what.sections.filter((s) => s.part === null) : what.sections.map((s) => ({ section: s.section, part: null })))
        return `${path} · ${names || block} · ${appliedEditWords(origin, what.originAt, clock)}`
      }
      if (origin?.kind === 'checkpoint') return `${path} · ${what.sections.length ? sectionWords(what.sections) : block} · re-frozen at the compaction checkpoint${at}`
      return `${path} · ${what.sections.length ? sectionWords(what.sections) : block} changed`
    }
    case 'message': {
      const edit = what.editedBy
      if (edit?.kind === 'context_edit' && edit.source === TAKE_BACK_SOURCE) return `${path} · a message taken back by the user${edit.at !== null ? ` at ${clock(edit.at)}` : ''}`
      if (edit?.kind === 'context_edit') return `${path} · context edit by ${edit.source}${edit.at !== null ? ` at ${clock(edit.at)}` : ''}`
      if (edit?.kind === 'checkpoint' || what.historyKind === 'compaction_summary') return `${path} · compaction checkpoint`
      return `${path} · an earlier ${what.historyKind === 'assistant' ? 'answer' : 'message'} changed`
    }
    case 'settings':
      return what.level === 'system'
        ? 'system · request settings changed (speed), which re-keys every system and message block'
        : 'messages · request settings changed (tool_choice, thinking, effort or images), which re-keys every message block'
  }
}

/** An apply-now's edit times, as stored: a plan summary read back from the store is not trusted to hold them. */
function editTimes(origin: { readonly editedAt?: unknown }): FileEditTime[] {
  if (!Array.isArray(origin.editedAt)) return []
  return origin.editedAt.filter((e): e is FileEditTime => typeof e === 'object' && e !== null && typeof (e as FileEditTime).path === 'string' && Number.isFinite((e as FileEditTime).at))
}

/**
 * The files of an apply-now, when they were edited and when the user applied them ("AGENTS.md edited at 20:43,
 * CLAUDE.md at 20:50, applied now by the user at 20:52"). The apply time is never called an edit time: a file whose
 * edit time was not recorded (its budget cut alone moved, or the block was frozen before edit times were kept) is
 * named as applied, and when none was recorded the apply time is all the line says.
 */
function appliedEditWords(origin: Extract<SnapshotOrigin, { kind: 'apply_now' }>, appliedAt: number | null, clock: (at: number) => string): string {
  const applied = `applied now by the user${appliedAt !== null ? ` at ${clock(appliedAt)}` : ''}`
  if (origin.paths.length === 0) return `a file ${applied}`
  const times = new Map(editTimes(origin).map((e) => [e.path, e.at]))
  const timed = origin.paths.filter((p) => times.has(p))
  if (timed.length === 0) return `${list(origin.paths)} ${applied}`
  const untimed = origin.paths.filter((p) => !times.has(p))
  const along = untimed.length > 0 ? ` with ${list(untimed)}` : ''
  const clocks = timed.map((p) => clock(times.get(p)!))
  if (appliedAt !== null && clocks.every((c) => c === clock(appliedAt))) return `${list(timed)} edited and ${applied}${along}`
  if (timed.length > 3) return `${list(timed)} last edited at ${clock(Math.max(...timed.map((p) => times.get(p)!)))}, ${applied}${along}`
  // Files edited in the same minute share their time: "AGENTS.md, CLAUDE.md edited at 20:43".
  const groups: Array<{ paths: string[]; clock: string }> = []
  timed.forEach((p, i) => {
    const same = groups.find((g) => g.clock === clocks[i])
    if (same) same.paths.push(p)
    else groups.push({ paths: [p], clock: clocks[i]! })
  })
  const edited = groups.map((g, i) => `${g.paths.join(', ')}${i === 0 ? ' edited' : ''} at ${g.clock}`).join(', ')
  return `${edited}, ${applied}${along}`
}

/**
 * An entry that expired while the session went on: the passes since read a later entry and never this one, so it
 * was not refreshed (a change before that later entry, a compaction for one, then needs it).
 */
export function untouchedLabel(path: string, idleMs: number, ttlMs: number): string {
  return `cache expired: the entry through ${path} was last read ${formatDuration(idleMs)} before, longer than the ${formatDuration(ttlMs)} an entry is kept (TTL); the passes since read a later entry, which does not keep it alive`
}

/** Said for someone who does not know the cache's rules: what expired and why, the rule's name (TTL) in brackets. */
export function ttlLabel(idleMs: number, ttlMs: number): string {
  return `cache expired: idle ${formatDuration(idleMs)}, longer than the ${formatDuration(ttlMs)} an entry is kept (TTL)`
}
