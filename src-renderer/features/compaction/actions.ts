/**
 * The compaction view's requests: the session's checkpoints, drafts and pins; compacting now (with a focus, or as a
 * dry run); applying a draft with its summary as edited, or discarding it; cancelling; pinning and unpinning.
 */
import { client } from '../../platform/client'
import { useChatStore } from '../../state/chat'
import { useCompactionStore } from '../../state/compaction'
import { useSessionsStore } from '../../state/sessions'
import { loadSession } from '../chat/actions'
import { outcomeLevel, type OutcomeLevel } from './model/outcome-level'

/** What a compaction that made no checkpoint says, and whether as a note or an error (model/outcome-level.ts). */
export interface CompactionOutcomeText {
  readonly text: string
  readonly level: OutcomeLevel
}

const outcomeText = (status: string, message: string): CompactionOutcomeText => ({ text: compactionMessage(status, message), level: outcomeLevel(status) })

export async function loadCompactions(sessionId: string): Promise<void> {
  const [list, pins] = await Promise.all([client.request('compaction.list', { sessionId }), client.request('pin.list', { sessionId })])
  const store = useCompactionStore.getState()
  if (!list.ok) return store.loadFailed(sessionId, `Could not read the compactions: ${list.error.message}`)
  store.listLoaded(sessionId, list.value, pins.ok ? pins.value : [])
  // The cards name entries by number and the diff needs their text: make sure the session's entries are loaded.
  if (!useChatStore.getState().bySession[sessionId]?.loaded) await loadSession(sessionId)
}

/** Runs a compaction now; a dry run comes back as a draft to edit. Progress arrives as compaction.* events. */
export async function compactNow(sessionId: string, focus: string, dryRun: boolean): Promise<CompactionOutcomeText | null> {
  const trimmed = focus.trim()
  const result = await client.request('compaction.run', { sessionId, ...(trimmed ? { focus: trimmed } : {}), dryRun })
  if (!result.ok)
    return { level: 'error', text: result.error.code === 'busy' ? 'The agent is working in this session: wait for the turn to end, or stop it (Esc), then compact.' : `The compaction did not run: ${result.error.message}` }
  await loadCompactions(sessionId)
  const outcome = result.value
  if (outcome.status === 'applied' || outcome.status === 'draft') return null
  return outcomeText(outcome.status, outcome.message ?? '')
}

export function compactionMessage(status: string, message: string): string {
  switch (status) {
    case 'nothing_to_compact':
      return `${message || 'Nothing to compact yet: the conversation is shorter than the steps kept whole.'} Compact again after a few more turns.`
    case 'cancelled':
      return 'The compaction was cancelled; the conversation is exactly as it was.'
    case 'stale':
      // The main process's reason says the same in its own words: said once, with what to do, and nothing nested.
      return 'The conversation moved on since this dry run, so it was not applied. Its card keeps the summary with your edits: copy it, or run the dry run again.'
    case 'refused':
      return `The compaction was refused: ${message}`
    default:
      return `The compaction failed: ${message}. The conversation is unchanged; try again, or with a shorter focus.`
  }
}

export async function applyDraft(sessionId: string, draftId: string, summary: string | null): Promise<string | null> {
  const result = await client.request('compaction.apply', { sessionId, draftId, ...(summary !== null ? { summary } : {}) })
  if (!result.ok) return `The draft was not applied: ${result.error.message}`
  await loadCompactions(sessionId)
  if (result.value.status !== 'applied') return compactionMessage(result.value.status, result.value.message ?? '')
  // Another session picked while the draft was being applied: the card open there stays.
  if (result.value.checkpoint && useSessionsStore.getState().selectedId === sessionId) useCompactionStore.getState().selected({ kind: 'checkpoint', id: result.value.checkpoint.id })
  return null
}

export async function discardDraft(sessionId: string, draftId: string): Promise<void> {
  await client.request('compaction.discard', { sessionId, draftId })
  useCompactionStore.getState().draftDiscarded(sessionId, draftId)
}

export async function cancelCompaction(sessionId: string): Promise<void> {
  await client.request('compaction.cancel', { sessionId })
}

// A pin changes what a dry run waiting would make (its size after, its pins' fates): the list is read again with the
// pins, and the draft's figures follow them.
export async function addPin(sessionId: string, text: string): Promise<string | null> {
  const result = await client.request('pin.add', { sessionId, text: text.trim() })
  if (!result.ok) return `Not pinned: ${result.error.message}`
  await loadCompactions(sessionId)
  return null
}

export async function removePin(sessionId: string, pinId: string): Promise<void> {
  await client.request('pin.remove', { sessionId, pinId })
  await loadCompactions(sessionId)
}
