import { ContinueError } from '../../node/transcripts/continue'
import { TranscriptService } from '../../node/transcripts/service'
import { TranscriptImportError } from '../../node/transcripts/store-import'
import type { Handlers } from '../dispatch'
import { RpcError } from '../errors'
import type { Services } from '../services'

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
  const transcripts = new TranscriptService({ store, now: () => clock.now(), homeDir: services.homeDir, dropSession: (id) => services.sessions.drop(id) })
  return {
    'transcripts.list': ({ folder }) => transcripts.list(folder) as never,
    'transcripts.import': async ({ path, folder, projectId }) => {
      if (projectId !== undefined && !store.projects.get(projectId)) throw new RpcError('not_found', `No project ${projectId}`)
      try {
        return (await transcripts.import(path, folder, projectId)) as never
      } catch (err) {
        return importError(err)
      }
    },
    'transcripts.importAll': async ({ folder, project }) => (await transcripts.importAll(folder, project)) as never,
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
