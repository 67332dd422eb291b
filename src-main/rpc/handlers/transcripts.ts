import { ContinueError } from '../../node/transcripts/continue'
import { TranscriptService } from '../../node/transcripts/service'
import { TranscriptImportError } from '../../node/transcripts/store-import'
import type { Handlers } from '../dispatch'
import { RpcError } from '../errors'
import type { Services } from '../services'
import { projectView } from './working-folder'

type TranscriptRequests = 'transcripts.list' | 'transcripts.import' | 'transcripts.importAll' | 'transcripts.totals' | 'transcripts.continue'

function importError(err: unknown): never {
  if (err instanceof TranscriptImportError) {
    switch (err.kind) {
      case 'not_found':
        throw new RpcError('not_found', err.message)
      case 'outside_root':
        throw new RpcError('permission_denied', err.message)
      case 'too_large':
      case 'not_a_file':
        throw new RpcError('invalid_input', err.message)
      case 'unreadable':
        throw new RpcError('io_error', err.message)
    }
  }
  throw err
}

export function transcriptHandlers(services: Services): Pick<Handlers, TranscriptRequests> {
  const { store, clock, events } = services
  // Every window's sidebar follows an import: the projects it filed sessions under, and the sessions themselves.
  const announce = (imported: ReadonlyArray<{ readonly status: string; readonly sessionId: string; readonly projectId: string; readonly replaced?: { readonly sessionId: string; readonly projectId: string } }>) => {
    for (const projectId of new Set(imported.map((i) => i.projectId))) {
      const project = store.projects.get(projectId)
      if (project) events.emit('project.opened', projectView(services, project))
    }
    for (const i of imported) {
      const session = i.status === 'unchanged' ? null : store.sessions.get(i.sessionId)
      if (session) events.emit('session.created', session)
      // A grown file's earlier import is gone (its children with it): every window takes its row away, and one that
      // showed it shows the new import, listed just before.
      if (i.replaced) events.emit('session.deleted', { ...i.replaced, replacedBy: i.sessionId })
    }
  }
  const transcripts = new TranscriptService({ store, now: () => clock.now(), homeDir: services.homeDir, dropSession: (id) => services.sessions.drop(id) })
  return {
    'transcripts.list': ({ folder }) => transcripts.list(folder).catch(importError) as never,
    'transcripts.import': async ({ path, folder, projectId }) => {
      if (projectId !== undefined && !store.projects.get(projectId)) throw new RpcError('not_found', `No project ${projectId}`)
      try {
        const imported = await transcripts.import(path, folder, projectId)
        announce([imported])
        return imported as never
      } catch (err) {
        return importError(err)
      }
    },
    'transcripts.importAll': async ({ folder, project }) => {
      const all = await transcripts.importAll(folder, project).catch(importError)
      announce(all.results)
      return all as never
    },
    'transcripts.totals': ({ sessionId }) => {
      const totals = transcripts.totals(sessionId)
      if (!totals) throw new RpcError('not_found', `No session ${sessionId}`)
      return totals as never
    },
    'transcripts.continue': ({ sessionId, projectId }) => {
      try {
        const session = transcripts.continue(sessionId, projectId)
        events.emit('session.created', session)
        return session
      } catch (err) {
        if (err instanceof ContinueError) throw new RpcError(err.kind === 'not_found' ? 'not_found' : 'invalid_input', err.message)
        throw err
      }
    },
  }
}
