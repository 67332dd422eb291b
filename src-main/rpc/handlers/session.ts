import { AlreadyImported, defaultExportPath, ExportIoError, exportSessionToFile, ImportError, importSessionFromFile } from '../../node/store/export'
import { DEFAULT_PERMISSION_MODE } from '../../engine/tools/permissions'
import { forgetSessionCache } from '../../node/cache'
import { RpcError } from '../errors'
import { entriesBefore, newestEntries } from '../../engine/conversation/window'
import { SESSION_WINDOW_ENTRIES } from '../../../src-preload/limits'
import type { Handlers } from '../dispatch'
import type { Services } from '../services'
import { notAWorkingFolder, requireFolderPresent } from './working-folder'

type SessionRequests = 'session.create' | 'session.list' | 'session.get' | 'session.entries' | 'session.rename' | 'session.delete' | 'session.export' | 'session.import' | 'session.pickFile'

export function sessionHandlers(services: Services): Pick<Handlers, SessionRequests> {
  const { store, clock, events } = services
  const requireProject = (projectId: string) => {
    const project = store.projects.get(projectId)
    if (!project) throw new RpcError('not_found', `No project ${projectId}`)
    return project
  }
  return {
    'session.create': ({ projectId, title }) => {
      const project = requireProject(projectId)
      // The agent works in the project's folder: not among Claude Code's logs, nor among the proxy's captures.
      const holds = notAWorkingFolder(services, projectId, project.root)
      if (holds) throw new RpcError('unsupported', `${project.root} holds ${holds}: a new session there would work among them. Open the project's own folder in Loupe and start the session there.`)
      requireFolderPresent(project.root)
      const now = clock.now()
      // Without a title (or with one that shows nothing), the store names it by the time it was made.
      const session = store.sessions.create(projectId, title ?? '', now)
      events.emit('session.created', session)
      return session
    },
    'session.list': ({ projectId }) => {
      requireProject(projectId)
      return store.sessions.listByProject(projectId).map((session) => ({ ...session, activity: services.sessions.activity(session.id) }))
    },
    'session.rename': ({ sessionId, title }) => {
      const session = store.sessions.rename(sessionId, title, clock.now())
      if (!session) throw new RpcError('not_found', `No session ${sessionId}`)
      events.emit('session.renamed', session)
      return session
    },
    'session.delete': async ({ sessionId }) => {
      const session = store.sessions.get(sessionId)
      if (!session) throw new RpcError('not_found', `No session ${sessionId}`)
      await services.sessions.drop(sessionId)
      const deleted = store.transaction(() => store.sessions.delete(sessionId))
      forgetSessionCache(store, sessionId)
      if (deleted) events.emit('session.deleted', { sessionId, projectId: session.projectId })
      return { deleted, blobsCollected: store.transaction(() => store.blobs.collectGarbage()) }
    },
    'session.export': async ({ sessionId, path }) => {
      const target = path ?? defaultExportPath(services.info.dataDir, sessionId)
      try {
        const written = await exportSessionToFile(store.db, sessionId, target, services.info.dataDir)
        if (!written) throw new RpcError('not_found', `No session ${sessionId}`)
        return written
      } catch (err) {
        if (err instanceof ImportError) throw new RpcError('invalid_input', err.message)
        if (err instanceof ExportIoError) throw new RpcError('io_error', err.message)
        throw err
      }
    },
    'session.pickFile': async ({ purpose, defaultPath }) => {
      if (!services.pickFile) throw new RpcError('unsupported', 'This host has no file dialog: type the path of the file')
      return { path: await services.pickFile({ purpose, ...(defaultPath !== undefined ? { defaultPath } : {}) }) }
    },
    'session.import': async ({ projectId, path }) => {
      requireProject(projectId)
      try {
        const sessionId = await importSessionFromFile(store.db, path, projectId)
        // The import starts with a new session's permissions (decision 0033); a conversation that last said another
        // mode would read as if it still held, so the chat says what holds now.
        const said = store.entries.newest(sessionId, 'mode_switched')
        if (said && said.mode !== DEFAULT_PERMISSION_MODE) {
          store.entries.append(sessionId, [{ kind: 'notice', source: 'permissions', level: 'info', text: `Imported: this session asks before changes (${DEFAULT_PERMISSION_MODE}), as every imported session starts. The file's permission mode (${said.mode}) and its "always allow" rules were not brought in.` }], clock.now())
        }
        const session = store.sessions.get(sessionId)!
        // Every window's sidebar lists it, as it lists a session made elsewhere.
        events.emit('session.created', session)
        return session
      } catch (err) {
        // The same session imported again (or never gone: exported from this Loupe): it is here, with its ids, and
        // perhaps more since. Answered with it, so the window opens it instead of a refusal with nothing to do.
        if (err instanceof AlreadyImported) {
          const present = store.sessions.get(err.sessionId)
          if (present) return { ...present, alreadyPresent: true }
        }
        if (err instanceof ImportError) throw new RpcError('invalid_input', err.message)
        throw err
      }
    },
    'session.entries': ({ sessionId, beforeSeq, limit, fromEntryId, throughPassId }) => {
      if (!store.sessions.get(sessionId)) throw new RpcError('not_found', `No session ${sessionId}`)
      const page = entriesBefore(services.sessions.get(sessionId)!.entries(), beforeSeq, { limit: limit ?? SESSION_WINDOW_ENTRIES, ...(fromEntryId ? { fromEntryId } : {}), ...(throughPassId ? { throughPassId } : {}) })
      return { entries: page.entries as never, earlier: page.earlier, seqs: page.seqs }
    },
    'session.get': ({ sessionId }) => {
      const session = store.sessions.get(sessionId)
      if (!session) throw new RpcError('not_found', `No session ${sessionId}`)
      const project = requireProject(session.projectId)
      const runtime = services.sessions.get(sessionId)!
      const window = newestEntries(runtime.entries())
      return {
        session,
        project,
        entries: window.entries as never,
        earlier: window.earlier,
        landmarks: window.landmarks as never,
        seqs: window.seqs,
        mode: runtime.mode,
        model: runtime.model,
        running: runtime.running,
        livePass: services.sessions.livePass(sessionId) as never,
        pendingApprovals: runtime.pendingApprovals() as never,
        runningTools: runtime.runningTools(),
      }
    },
  }
}
