/**
 * Who made a session's conversation, as the renderer can tell it. The contract's Session carries no origin; each
 * pass does (`source`: `loupe`, `transcript` for one reconstructed from a Claude Code transcript, `proxy` for one
 * captured from another agent). A session whose passes came from a transcript or the proxy was never run by
 * Loupe; a session without passes yet is Loupe's own, and so is one continued from an import (the passes it makes
 * are Loupe's).
 *
 * The main process refuses to add to such a session whatever the renderer shows (src-main/rpc/handlers/run.ts).
 */
import type { PassSummaryView } from '../../../src-preload/contract'

export type ConversationSource = 'loupe' | 'transcript' | 'proxy'

type PassSource = Pick<PassSummaryView, 'id' | 'sessionId' | 'source'>

export function sessionSourceOf(passes: ReadonlyArray<PassSource>, sessionId: string): ConversationSource {
  for (const p of passes) if (p.sessionId === sessionId && (p.source === 'transcript' || p.source === 'proxy')) return p.source
  return 'loupe'
}

/** What the UI calls the author of a message that a pass of this source produced. */
export function authorOf(source: ConversationSource | undefined): string {
  return source === 'transcript' ? 'Claude Code' : source === 'proxy' ? 'Captured agent' : 'Loupe'
}
