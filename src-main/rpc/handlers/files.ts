import { FilesError, listInstructionFiles, openFile, saveFile, sessionBlockFigures, type FilesContext } from '../../node/files'
import type { Handlers } from '../dispatch'
import { NotASessionFileError } from '../../node/session/runtime'
import { RpcError } from '../errors'
import type { Services } from '../services'
import { requireLoupeSession, requireRuntime } from './run'
import { notAWorkingFolder } from './working-folder'

/** The Files view (docs/inspector.md "Files"): every path goes through node/files. */
export function filesHandlers(services: Services): Pick<Handlers, 'files.list' | 'files.read' | 'files.save' | 'files.apply' | 'files.unapplied'> {
  // The files each project's Files view opened (or saved, or made) as existing files, for the app's life: one
  // deleted on disk while open drops out of the listing, and this is what still lets the view see it gone and
  // write it back (node/files/edit.ts `opened`). Only paths the listing named get here, so it stays small.
  const opened = new Map<string, Set<string>>()
  const remember = (projectId: string, path: string) => {
    const paths = opened.get(projectId) ?? new Set<string>()
    paths.add(path)
    opened.set(projectId, paths)
  }
  const context = (projectId: string): FilesContext => {
    const project = services.store.projects.get(projectId)
    if (!project) throw new RpcError('not_found', `No project ${projectId}`)
    const holds = notAWorkingFolder(services, projectId, project.root)
    const projectReadOnly = holds ? `${project.root} holds ${holds}, not a project's files: the Files view writes nothing there. Open the project's own folder in Loupe to edit its instruction files.` : null
    return { root: project.root, loupeHome: services.loupeHome, homeDir: services.homeDir, dataDir: services.info.dataDir, now: () => services.clock.now(), projectReadOnly, opened: opened.get(projectId) ?? new Set() }
  }
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (err) {
      if (err instanceof FilesError) throw new RpcError(err.code, err.message)
      throw err
    }
  }
  return {
    'files.list': ({ projectId }) => {
      const ctx = context(projectId)
      // The listing's arrays are readonly; the contract's schema types them as plain arrays (same values).
      return listInstructionFiles({ ...ctx, now: ctx.now() }) as never
    },
    'files.read': async ({ projectId, path }) => {
      const file = await guard(() => openFile(context(projectId), path))
      if (file.exists) remember(projectId, path)
      return file
    },
    'files.save': async ({ projectId, path, text, baseSha256 }) => {
      const saved = await guard(() => saveFile(context(projectId), { path, text, baseSha256 }))
      if (saved.status === 'saved') {
        remember(projectId, path)
        services.events.emit('files.changed', { projectId, path })
      }
      return saved
    },
    'files.unapplied': async ({ sessionId }) => {
      const runtime = requireRuntime(services, sessionId)
      requireLoupeSession(services, sessionId)
      const { paths, changes, sent } = await runtime.unappliedInstructionFiles()
      if (paths.length === 0) return { paths }
      // What the session sends meanwhile, sized as the listing sizes the files on disk: only when they differ.
      return { paths, changes, ...(sent ? { sent: sessionBlockFigures(sent) } : {}) }
    },
    'files.apply': async ({ sessionId, paths }) => {
      const runtime = requireRuntime(services, sessionId)
      requireLoupeSession(services, sessionId)
      if (runtime.running) throw new RpcError('busy', 'A turn or a compaction is running: apply the edit when it ends (or stop it with Esc)')
      try {
        return await runtime.applyInstructionEdits(paths)
      } catch (err) {
        if (err instanceof Error && err.message === 'busy') throw new RpcError('busy', 'A turn started meanwhile: apply the edit when it ends')
        if (err instanceof NotASessionFileError) throw new RpcError('invalid_input', err.message)
        throw err
      }
    },
  }
}
