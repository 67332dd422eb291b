/**
 * The entries a conversation shows, drawn in parts: runs of consecutive positions (`seq`), each one element.
 *
 * Deep into a long session thousands of entries are shown, and a "Show earlier" drew and laid out every one of them
 * again. A part is memoised, so earlier entries shown draw only the parts they fill, and it skips its layout and paint
 * while off screen (conversation.css, decision 0047). A part is a run of positions, not of indexes: earlier entries
 * put in front (a page read from the host, decision 0039) or newer ones added at the end leave every other part
 * holding what it held.
 */
import type { EntryView } from '../../../src-preload/contract'
import { entriesDrawSame, type EntryContext } from './entry-context'

/**
 * Positions one part spans. Small enough that the parts in view (the browser draws those near the view whole) are a
 * few dozen entries, not hundreds; large enough that a day's work is a couple of hundred parts, not thousands of
 * elements for the browser to check against the view at every frame.
 */
export const PART_POSITIONS = 50

export interface ConversationPartEntries {
  /** The part's run of positions (seq ÷ PART_POSITIONS): its React key, the same whatever is shown around it. */
  readonly key: number
  /** Its entries shown, in order; never empty. */
  readonly entries: ReadonlyArray<EntryView>
}

/**
 * The entries from index `from` on, in parts, without those `folded` (drawn under a take-back, wherever it is). The
 * entries are in position order (the chat store keeps them so).
 */
export function conversationParts(entries: ReadonlyArray<EntryView>, from: number, folded: ReadonlySet<string>): ConversationPartEntries[] {
  const parts: Array<{ key: number; entries: EntryView[] }> = []
  for (let i = Math.max(0, from); i < entries.length; i++) {
    const entry = entries[i]!
    if (folded.has(entry.id)) continue
    const key = Math.floor(entry.seq / PART_POSITIONS)
    const last = parts.at(-1)
    if (last?.key === key) last.entries.push(entry)
    else parts.push({ key, entries: [entry] })
  }
  return parts
}

/**
 * Whether a part would draw the same with `next` as with `prev` (React.memo's comparison): the same entries, each the
 * same object, reading the same from the context they are drawn in. Its entries array is new at every render of the
 * conversation. The context is one object kept while nothing in it changes (Conversation.tsx); when the entries held
 * change (a page read from the host, a tool's result), it is a new one, which most parts' entries read as before.
 */
export function partDrawsSame(prev: { readonly entries: ReadonlyArray<EntryView>; readonly context: EntryContext }, next: { readonly entries: ReadonlyArray<EntryView>; readonly context: EntryContext }): boolean {
  if (prev.entries.length !== next.entries.length || !prev.entries.every((entry, i) => entry === next.entries[i])) return false
  return entriesDrawSame(next.entries, prev.context, next.context)
}
