import type { PermissionModeName, RequestInput } from '../../../src-preload/contract'
import { MAX_ENTRIES_PAGE } from '../../../src-preload/limits'
import type { EditPriceView } from '../../state/files'
import { client } from '../../platform/client'
import { useChatStore } from '../../state/chat'
import { useDraftsStore } from '../../state/drafts'
import { boxAfterTakeBack, type BoxAfterTakeBack } from './take-back'
import { boxAfterCancelledCompact, isCompactCommand } from './compact-command'
import { useProjectsStore } from '../../state/projects'
import { useSessionsStore } from '../../state/sessions'
import { selectProject } from '../projects/actions'
import { focusMessageBox } from './focus'
import { tooLongMessage } from './limits'
import { useCompactionStore } from '../../state/compaction'
import { loadCompactions } from '../compaction/actions'

export async function loadSession(sessionId: string): Promise<void> {
  const result = await client.request('session.get', { sessionId })
  if (!result.ok) return useChatStore.getState().failed(sessionId, result.error.message)
  useChatStore.getState().sessionLoaded(result.value)
  // A turn running when the window opened may be a compaction: the chat shows its progress, from the snapshot the
  // compaction list carries (the events keep it current from here on).
  if (result.value.running && !useCompactionStore.getState().bySession[sessionId]?.loaded) await loadCompactions(sessionId)
}

/** The reads of earlier entries in flight, by session: one at a time, so pages arrive in order. */
const readingEarlier = new Map<string, Promise<void>>()

/**
 * Reads the entries before those the window holds (decision 0039): a page of them, or with `fromEntryId` every one
 * from that entry on, or with `throughPassId` every one from a few before that pass's answer on (one read, however
 * far back it is). Nothing when every entry is held, or when what is asked for is among them already.
 */
export function loadEarlierEntries(sessionId: string, fromEntryId?: string, throughPassId?: string): Promise<void> {
  const pending = readingEarlier.get(sessionId)
  if (pending) return pending.then(() => (fromEntryId || throughPassId ? loadEarlierEntries(sessionId, fromEntryId, throughPassId) : undefined))
  const chat = useChatStore.getState().bySession[sessionId]
  const first = chat?.entries[0]
  if (!chat?.loaded || !first || chat.earlier === 0) return Promise.resolve()
  if (fromEntryId && chat.entries.some((e) => e.id === fromEntryId)) return Promise.resolve()
  if (throughPassId && chat.entries.some((e) => e.kind === 'assistant_message' && e.passId === throughPassId)) return Promise.resolve()
  const read = (async () => {
    const result = await client.request('session.entries', { sessionId, beforeSeq: first.seq, ...(fromEntryId ? { fromEntryId } : {}), ...(throughPassId ? { throughPassId } : {}) })
    // The read is over before the store hears of it: a view that reads on (a pass chosen from further back still not
    // among the entries) asks again as the page arrives, and must start the next read, not wait on this one.
    readingEarlier.delete(sessionId)
    if (!result.ok) return useChatStore.getState().failed(sessionId, `Could not read the earlier entries: ${result.error.message}`)
    useChatStore.getState().earlierLoaded(sessionId, result.value)
    // An entry further back than one answer holds (the host sends at most MAX_ENTRIES_PAGE from it on, the newest of
    // them): read on until it is among the entries. A shorter answer without it means the session does not hold it.
    const page = result.value
    if (fromEntryId && page.earlier > 0 && page.entries.length >= MAX_ENTRIES_PAGE && !page.entries.some((e) => e.id === fromEntryId)) await loadEarlierEntries(sessionId, fromEntryId)
  })().finally(() => {
    if (readingEarlier.get(sessionId) === read) readingEarlier.delete(sessionId)
  })
  readingEarlier.set(sessionId, read)
  return read
}

export async function sendMessage(sessionId: string, text: string): Promise<boolean> {
  const trimmed = text.trim()
  if (!trimmed) return false
  // Over the contract's limit the host would refuse it with its schema's words: said here, plainly, before sending.
  const tooLong = tooLongMessage(trimmed.length)
  if (tooLong !== null) {
    useChatStore.getState().failed(sessionId, tooLong, trimmed)
    return false
  }
  const result = await client.request('run.start', { sessionId, text: trimmed })
  if (!result.ok) {
    // Refused for its text (too large for the model's window), the error is about this draft; busy or a missing
    // folder is about the session, and stays while the draft is edited.
    useChatStore.getState().failed(sessionId, result.error.message, result.error.code === 'invalid_input' ? trimmed : undefined)
    return false
  }
  useChatStore.getState().runStarted(sessionId)
  if (isCompactCommand(trimmed)) compactCommands.set(result.value.runId, { sessionId, text: trimmed })
  return true
}

/** The `/compact` commands this window sent, by run, until their run ends. */
const compactCommands = new Map<string, { readonly sessionId: string; readonly text: string }>()

/** A run ended: a `/compact` this window sent and the user cancelled gives its text back to the message box. */
export function runEnded(runId: string, reason: string): void {
  const command = compactCommands.get(runId)
  if (!command) return
  compactCommands.delete(runId)
  if (reason !== 'cancelled') return
  const drafts = useDraftsStore.getState()
  drafts.draftChanged(command.sessionId, boxAfterCancelledCompact(drafts.bySession[command.sessionId] ?? '', command.text))
}

export async function retryTurn(sessionId: string): Promise<void> {
  const result = await client.request('run.retry', { sessionId })
  if (result.ok) useChatStore.getState().runStarted(sessionId)
  else useChatStore.getState().failed(sessionId, result.error.message)
}

/**
 * Takes a message back (decision 0024), with any sent after it, and puts its text in the message box, before anything the user
 * had typed there since (kept, after a blank line): nothing typed is lost. The take-back's entry tells every window.
 */
export async function takeBackMessage(sessionId: string, entryId: string): Promise<boolean> {
  const result = await client.request('run.takeBack', { sessionId, entryId })
  if (!result.ok) {
    useChatStore.getState().failed(sessionId, result.error.message)
    return false
  }
  const drafts = useDraftsStore.getState()
  const next = boxAfterTakeBack(drafts.bySession[sessionId] ?? '', result.value.text, lastTakeBack.get(sessionId))
  lastTakeBack.set(sessionId, next)
  drafts.draftChanged(sessionId, next.box)
  focusMessageBox()
  return true
}

/** What each session's last take-back put in the message box, and what the user had typed there before it. */
const lastTakeBack = new Map<string, BoxAfterTakeBack>()

export async function stopTurn(sessionId: string): Promise<void> {
  const result = await client.request('run.cancel', { sessionId })
  // A Stop that did not reach the host (the connection is down) says so, rather than seeming to be ignored.
  if (!result.ok) useChatStore.getState().failed(sessionId, `Could not stop the turn: ${result.error.message}`)
}

export async function answerApproval(
  sessionId: string,
  toolUseId: string,
  answer: RequestInput<'approval.answer'>['answer'],
): Promise<void> {
  // Answered from the card (a button, the deny form): the card goes, and the keyboard with it goes to the message box
  // rather than to the page (Approval.tsx). A card that comes next takes it from there.
  const result = await client.request('approval.answer', { sessionId, toolUseId, answer })
  useChatStore.getState().approvalAnswered(sessionId, toolUseId)
  if (!result.ok) useChatStore.getState().failed(sessionId, result.error.message)
}

export async function switchMode(sessionId: string, mode: PermissionModeName): Promise<void> {
  const result = await client.request('session.setMode', { sessionId, mode })
  if (result.ok) useChatStore.getState().modeChanged(sessionId, result.value.mode)
  else useChatStore.getState().failed(sessionId, result.error.message)
}

/** What switching the session's model would cost the next pass; `price` null before the first pass (nothing cached). */
export async function priceModelSwitch(sessionId: string, model: string): Promise<{ ok: true; price: EditPriceView | null } | { ok: false; error: string }> {
  const result = await client.request('cache.priceEdit', { sessionId, edit: { kind: 'model', model } })
  return result.ok ? { ok: true, price: result.value } : { ok: false, error: result.error.message }
}

/** Switches the session's model (decision 0021); the entry it records tells every window. */
export async function switchModel(sessionId: string, model: string): Promise<boolean> {
  const result = await client.request('session.setModel', { sessionId, model })
  if (result.ok) useChatStore.getState().modelChanged(sessionId, result.value.model)
  else useChatStore.getState().failed(sessionId, result.error.message)
  return result.ok
}

/**
 * Starts a Loupe session whose history is an imported conversation (transcripts.continue) and opens it, ready for
 * a message: the imported session itself stays as it was recorded. Into `projectId` when given (another project,
 * when the session's working folder is not on this machine); the error's message when it could not.
 */
export async function continueAsLoupeSession(importedSessionId: string, projectId?: string): Promise<string | null> {
  const result = await client.request('transcripts.continue', { sessionId: importedSessionId, ...(projectId ? { projectId } : {}) })
  if (!result.ok) return result.error.message
  if (result.value.projectId !== useProjectsStore.getState().selectedId) await selectProject(result.value.projectId)
  useSessionsStore.getState().sessionCreated(result.value)
  focusMessageBox()
  return null
}
