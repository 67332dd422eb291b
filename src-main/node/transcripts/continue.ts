/**
 * Continuing an imported conversation as a new Loupe session: the new session's history starts with what the
 * imported session's model view holds (its last compaction's summary and the conversation after it), as user,
 * assistant and tool-result entries; the next message the user sends is a Loupe pass on top of it.
 *
 * What changes on the way: thinking blocks are left out (their signatures belong to the original conversation, and
 * the API accepts earlier turns without them), empty text blocks are dropped (the API refuses them), and a tool call
 * the transcript never answered gets a result saying so, so the history is one the API accepts.
 */
import type { Session } from '../../../src-preload/contract'
import type { EntryBody } from '../../engine/conversation/entries'
import { modelView } from '../../engine/conversation/history'
import type { AssistantContentBlock, ImageBlock, TextBlock } from '../../engine/model/wire'
import { dirname } from 'node:path'
import type { Store } from '../store'
import { continuationsOf, markSession, sessionOrigin } from './origins'

export const UNANSWERED_RESULT = 'The imported session ended before this tool call was answered; its result was never recorded.'

export class ContinueError extends Error {
  constructor(
    readonly kind: 'not_found' | 'not_imported' | 'empty' | 'no_working_folder',
    message: string,
  ) {
    super(message)
  }
}

function keepAssistant(content: ReadonlyArray<AssistantContentBlock>): AssistantContentBlock[] {
  const kept = content.filter((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking' && !(b.type === 'text' && b.text.trim() === ''))
  return kept.length > 0 ? kept : [{ type: 'text', text: '(no answer)' }]
}

function keepUser(content: ReadonlyArray<TextBlock | ImageBlock>): Array<TextBlock | ImageBlock> {
  return content.filter((b) => !(b.type === 'text' && b.text.trim() === ''))
}

/** The entries a continued session starts with: the imported session's model view, made safe to send. */
export function continuedEntries(store: Store, sessionId: string): EntryBody[] {
  const view = modelView(store.entries.list(sessionId))
  const out: EntryBody[] = []
  const head = view.checkpoint?.view.head ?? null
  if (head !== null && head.length > 0) out.push({ kind: 'user_message', content: head })
  const answered = new Set<string>()
  for (const e of view.entries) if (e.kind === 'tool_result') answered.add(e.toolUseId)
  for (const e of view.entries) {
    const replaced = view.replaced.get(e.id)?.content
    switch (e.kind) {
      case 'user_message': {
        const content = replaced !== undefined ? [{ type: 'text' as const, text: replaced }] : keepUser(e.content)
        if (content.length > 0) out.push({ kind: 'user_message', content })
        break
      }
      case 'tool_result':
        out.push({ kind: 'tool_result', toolUseId: e.toolUseId, toolName: e.toolName, content: replaced ?? e.content, isError: e.isError, outcome: e.outcome })
        break
      case 'assistant_message': {
        const content = keepAssistant(e.content)
        out.push({ kind: 'assistant_message', passId: e.passId, content, stopReason: e.stopReason, partial: false })
        for (const b of content) {
          if (b.type !== 'tool_use' || answered.has(b.id)) continue
          out.push({ kind: 'tool_result', toolUseId: b.id, toolName: b.name, content: UNANSWERED_RESULT, isError: true, outcome: 'interrupted' })
        }
        break
      }
      default:
        break // notes, approvals, checkpoints: not part of the conversation sent on
    }
  }
  return out
}

/** Creates the continued session (in the imported session's project unless another is given) with its history. */
export function continueImported(store: Store, sessionId: string, options: { readonly now: number; readonly projectId?: string; readonly title?: string }): Session {
  const origin = sessionOrigin(store, sessionId)
  if (origin === null) throw new ContinueError('not_found', `No session ${sessionId}`)
  if (origin.origin !== 'transcript') throw new ContinueError('not_imported', `Session ${sessionId} was not imported from a transcript`)
  const projectId = options.projectId ?? origin.projectId
  const project = store.projects.get(projectId)
  if (project === null) throw new ContinueError('not_found', `No project ${projectId}`)
  // A session whose working folder is not on this machine was filed under its transcript's folder on import
  // (store-import.ts projectFor). Continued there, the agent would read and edit among Claude Code's logs.
  if (origin.ref?.kind === 'claude-code' && project.root === dirname(origin.ref.path)) {
    throw new ContinueError(
      'no_working_folder',
      `This session's working folder is not on this machine, so it was filed under the folder of its transcript (${project.root}). Continued there, the agent would work among Claude Code's logs: continue it into a project you opened in Loupe.`,
    )
  }
  const source = store.sessions.get(sessionId)!
  return store.transaction(() => {
    const bodies = continuedEntries(store, sessionId)
    if (bodies.length === 0) throw new ContinueError('empty', `Session ${sessionId} has no conversation to continue`)
    // Continued again (deliberately: the chat and the panel offer the earlier one first), the new session is numbered
    // so that the sidebar tells the two apart: "Continued (2): …".
    const earlier = continuationsOf(store, sessionId).length
    const title = options.title ?? `${earlier === 0 ? 'Continued' : `Continued (${earlier + 1})`}: ${source.title.replace(/^Claude Code: /, '')}`
    const session = store.sessions.create(projectId, title, options.now)
    const fromModel = store.passes.lastMainModel(sessionId)
    markSession(store, session.id, 'loupe', { kind: 'continued', fromSessionId: sessionId, at: options.now, inherited: bodies.length, ...(fromModel ? { fromModel } : {}) })
    store.entries.append(session.id, bodies, options.now)
    return store.sessions.get(session.id)!
  })
}
