import type { Handlers } from '../dispatch'
import { RpcError } from '../errors'
import type { Services } from '../services'
import type { SessionRuntime } from '../../node/session/runtime'
import { modelProblem } from '../../node/model/models'
import { sessionOrigin } from '../../node/transcripts/origins'
import { defaultSessionTitle, titleFromMessage } from '../../engine/conversation/title'
import { keptUserMessage, lastTakeBackIndex } from '../../engine/conversation/take-back'
import { requireFolderPresent } from './working-folder'

export function requireRuntime(services: Services, sessionId: string): SessionRuntime {
  const runtime = services.sessions.get(sessionId)
  if (!runtime) throw new RpcError('not_found', `No session ${sessionId}`)
  return runtime
}

/**
 * Loupe adds to its own sessions only. One imported from a Claude Code transcript, or recorded by the capture proxy,
 * is the record of another agent's conversation: a message sent to it would go to the model with a history Loupe
 * never built (the API refuses it: a 400), and leave a failed pass and a changed mode in that record. The same holds
 * for everything else that adds to a session: a compaction, a pin, an edit applied now.
 */
export function requireLoupeSession(services: Services, sessionId: string): void {
  const origin = sessionOrigin(services.store, sessionId)?.origin
  if (origin === 'transcript') {
    throw new RpcError('unsupported', 'This session was imported from a Claude Code transcript and is read-only: continue it as a Loupe session to go on from it.')
  }
  if (origin === 'captured') throw new RpcError('unsupported', "This session records another agent's requests through the capture proxy and is read-only.")
}

export function runHandlers(services: Services): Pick<Handlers, 'run.start' | 'run.retry' | 'run.takeBack' | 'run.cancel' | 'approval.answer' | 'session.setMode' | 'session.setModel' | 'session.rules' | 'session.revokeRule'> {
  const start = (sessionId: string, input: Parameters<SessionRuntime['start']>[0]) => {
    const runtime = requireRuntime(services, sessionId)
    requireLoupeSession(services, sessionId)
    // Every tool would fail in a folder that is gone, and the model would answer about a project it cannot see.
    const projectId = services.store.sessions.get(sessionId)?.projectId
    const root = projectId === undefined ? undefined : services.store.projects.get(projectId)?.root
    if (root !== undefined) requireFolderPresent(root)
    if (runtime.running) throw new RpcError('busy', 'A turn is already running in this session: wait for it or stop it (Esc)')
    const tooLarge = input.kind === 'message' ? runtime.tooLargeToSend(input.text) : null
    if (tooLarge) throw new RpcError('invalid_input', tooLarge)
    const runId = runtime.start(input)
    services.events.emit('run.started', { sessionId, runId })
    return { runId }
  }
  return {
    'run.start': ({ sessionId, text }) => {
      // The first message still in the conversation names the session (one taken back named it for nothing).
      const runtime = services.sessions.get(sessionId)
      const first = runtime ? !keptUserMessage(runtime.entries()) : services.store.entries.newestOf(sessionId, ['user_message']) === null
      const started = start(sessionId, { kind: 'message', text })
      if (first) nameFromFirstMessage(services, sessionId, text)
      return started
    },
    'run.retry': ({ sessionId }) => {
      // A retry sends the conversation as it stands: after an answer it would end with the model's message, which the
      // API refuses (another window's Retry may still be on screen after this one's retry answered).
      // The same rule as the chat's Retry (src-renderer/features/chat/retry.ts), asked of the store.
      if (services.store.entries.newestOf(sessionId, ['turn_failed', 'user_message', 'assistant_message']) === 'assistant_message') throw new RpcError('unsupported', 'Nothing to retry: the last turn was answered. Send a message to go on.')
      // A failure whose message was then taken back: a retry would send a conversation that ends with an answer.
      const entries = requireRuntime(services, sessionId).entries()
      if (lastTakeBackIndex(entries) > entries.findLastIndex((e) => e.kind === 'turn_failed')) throw new RpcError('unsupported', 'Nothing to retry: the message was taken back. Send a message to go on.')
      return start(sessionId, { kind: 'retry' })
    },
    'run.takeBack': ({ sessionId, entryId }) => {
      const runtime = requireRuntime(services, sessionId)
      requireLoupeSession(services, sessionId)
      if (runtime.running) throw new RpcError('busy', 'A turn is running in this session: take the message back once it ends, or stop it (Esc)')
      const taken = runtime.takeBack(entryId)
      if (!taken.ok) throw new RpcError(taken.reason === 'not_found' ? 'not_found' : taken.reason === 'not_a_message' ? 'invalid_input' : 'unsupported', taken.message)
      // The session's first message taken back: the name it gave goes with it, and the next message names it again.
      if (!keptUserMessage(runtime.entries())) unnameFromMessage(services, sessionId, taken.text)
      return { text: taken.text, dropped: taken.dropped, messages: taken.messages }
    },
    'run.cancel': ({ sessionId }) => ({ cancelled: requireRuntime(services, sessionId).cancel() }),
    'approval.answer': ({ sessionId, toolUseId, answer }) => {
      const accepted = requireRuntime(services, sessionId).answerApproval(toolUseId, answer as never)
      if (!accepted) throw new RpcError('not_found', `No approval is waiting for tool call ${toolUseId}`)
      services.events.emit('approval.answered', { sessionId, toolUseId })
      return { accepted }
    },
    'session.setMode': ({ sessionId, mode }) => {
      const runtime = requireRuntime(services, sessionId)
      requireLoupeSession(services, sessionId)
      runtime.setMode(mode)
      return { mode: runtime.mode }
    },
    'session.setModel': ({ sessionId, model }) => {
      const runtime = requireRuntime(services, sessionId)
      requireLoupeSession(services, sessionId)
      // The session's own model is no switch, even one retired since it started (decision 0065).
      const unknown = model === runtime.model ? null : modelProblem(model, services.clock.now())
      if (unknown) throw new RpcError('invalid_input', unknown)
      if (runtime.running) throw new RpcError('busy', 'A turn is running in this session: switch the model once it ends, or stop it (Esc)')
      runtime.setModel(model)
      return { model: runtime.model }
    },
    'session.rules': ({ sessionId }) => ({ allow: [...requireRuntime(services, sessionId).allowRules()] }),
    'session.revokeRule': ({ sessionId, rule }) => {
      const runtime = requireRuntime(services, sessionId)
      requireLoupeSession(services, sessionId)
      if (!runtime.revokeRule(rule)) throw new RpcError('not_found', `This session does not always allow ${rule.tool} ${rule.pattern}`)
      return { allow: [...runtime.allowRules()] }
    },
  }
}

/** A name the session's first message gave it (not one the user chose since) goes back to the time it was made. */
function unnameFromMessage(services: Services, sessionId: string, text: string): void {
  const session = services.store.sessions.get(sessionId)
  if (!session || session.title !== titleFromMessage(text)) return
  const renamed = services.store.sessions.rename(sessionId, defaultSessionTitle(session.createdAt), services.clock.now())
  if (renamed) services.events.emit('session.renamed', renamed)
}

/**
 * The first message names a session the user has not named (its name is still the time it was made): every window's
 * sidebar hears it as a rename. A name the user gave, or one a continued conversation brought, is kept.
 */
function nameFromFirstMessage(services: Services, sessionId: string, text: string): void {
  const session = services.store.sessions.get(sessionId)
  const title = titleFromMessage(text)
  if (!session || title === null || session.title !== defaultSessionTitle(session.createdAt)) return
  try {
    const renamed = services.store.sessions.rename(sessionId, title, services.clock.now())
    if (renamed) services.events.emit('session.renamed', renamed)
  } catch (error) {
    // The turn has started: a name the store would not take must not answer run.start with an error.
    console.warn(`The session ${sessionId} kept its name: ${error instanceof Error ? error.message : String(error)}`)
  }
}
