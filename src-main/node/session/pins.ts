/**
 * Pins of one session (docs/compaction.md "Pins"): an entry or a sentence the user wants kept through compactions.
 * Stored as `pin` entries (added, removed), so they are durable and visible in the session log; the pins in effect
 * are the fold of those entries (engine/compaction/pins.ts).
 */
import type { Entry, EntryId } from '../../engine/conversation/entries'
import { foldPins, type Pin } from '../../engine/compaction/pins'
import type { StoreSessionLog } from './store-log'

/** A pinned entry's text: what the user saw of it. */
export function pinTextOf(entry: Entry): string | null {
  switch (entry.kind) {
    case 'user_message':
      return entry.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n') || null
    case 'assistant_message':
      return entry.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n') || null
    case 'tool_result':
      return entry.content || null
    case 'memory_saved':
      return entry.fact
    default:
      return null
  }
}

export type PinResult = { readonly ok: true; readonly pin: Pin; readonly entries: ReadonlyArray<Entry> } | { readonly ok: false; readonly code: 'not_found' | 'invalid'; readonly message: string }

export function addPin(log: StoreSessionLog, pinId: string, input: { readonly text?: string; readonly entryId?: string }): PinResult {
  let text = input.text?.trim() ?? ''
  let source: EntryId | null = null
  if (input.entryId !== undefined) {
    const entry = log.entries().find((e) => e.id === input.entryId)
    if (!entry) return { ok: false, code: 'not_found', message: `No entry ${input.entryId} in this session` }
    const shown = pinTextOf(entry)
    if (shown === null) return { ok: false, code: 'invalid', message: `Entry ${input.entryId} has no text to pin` }
    source = entry.id
    if (text === '') text = shown
  }
  if (text === '') return { ok: false, code: 'invalid', message: 'A pin needs a sentence or an entry' }
  const entries = log.append([{ kind: 'pin', action: 'added', pinId, text, sourceEntryId: source }])
  const pin = foldPins(log.entries()).find((p) => p.pinId === pinId)!
  return { ok: true, pin, entries }
}

export function removePin(log: StoreSessionLog, pinId: string): ReadonlyArray<Entry> | null {
  if (!foldPins(log.entries()).some((p) => p.pinId === pinId)) return null
  return log.append([{ kind: 'pin', action: 'removed', pinId }])
}
