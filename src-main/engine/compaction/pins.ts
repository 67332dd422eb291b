/**
 * Pinned facts (docs/compaction.md "Pins"): an entry or a sentence the user wants kept. After every compaction each
 * pin is looked for in what the model will see — the system blocks, the head, the kept messages — and a pin found
 * nowhere is re-injected verbatim into the head, within a budget; one that does not fit is flagged as lost.
 */
import type { PinStatus } from '../conversation/checkpoint'
import type { Entry, EntryId } from '../conversation/entries'
import { PIN_REINJECT_MAX_CHARS } from './settings'

export interface Pin {
  readonly pinId: string
  readonly text: string
  readonly sourceEntryId: EntryId | null
  /** The pin entry's id (when it was added). */
  readonly entryId: EntryId
}

/** The pins in effect: added and not removed since. */
export function foldPins(entries: ReadonlyArray<Entry>): Pin[] {
  const pins = new Map<string, Pin>()
  for (const e of entries) {
    if (e.kind !== 'pin') continue
    if (e.action === 'added') pins.set(e.pinId, { pinId: e.pinId, text: e.text, sourceEntryId: e.sourceEntryId, entryId: e.id })
    else pins.delete(e.pinId)
  }
  return [...pins.values()]
}

/** Whitespace differences do not make a pin "lost". */
export function normaliseForPin(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

export interface PinPlaces {
  /** What stays as it was: system blocks, kept messages (normalised with normaliseForPin). */
  readonly keptText: string
  readonly keptEntryIds: ReadonlySet<string>
  /** The summary and first request in the head (normalised). */
  readonly summaryText: string
}

export interface PinCheck {
  readonly pin: Pin
  readonly status: PinStatus
}

/** Each pin's status, and the texts to re-inject (in pin order). */
export function checkPins(pins: ReadonlyArray<Pin>, places: PinPlaces, budgetChars = PIN_REINJECT_MAX_CHARS): { checks: PinCheck[]; reinject: string[] } {
  const checks: PinCheck[] = []
  const reinject: string[] = []
  let left = budgetChars
  for (const pin of pins) {
    const text = normaliseForPin(pin.text)
    if ((pin.sourceEntryId !== null && places.keptEntryIds.has(pin.sourceEntryId)) || text === '' || places.keptText.includes(text)) {
      checks.push({ pin, status: 'kept' })
    } else if (places.summaryText.includes(text)) {
      checks.push({ pin, status: 'in_summary' })
    } else if (text.length <= left) {
      left -= text.length
      reinject.push(text)
      checks.push({ pin, status: 'reinjected' })
    } else {
      checks.push({ pin, status: 'lost' })
    }
  }
  return { checks, reinject }
}
