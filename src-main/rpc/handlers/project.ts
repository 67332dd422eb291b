import { dataFolderHolding, resolveProjectFolder } from '../../node/projects/resolve-folder'
import { RpcError } from '../errors'
import type { Handlers } from '../dispatch'
import type { Services } from '../services'
import { projectView, workingFolders } from './working-folder'

export function projectHandlers(services: Services): Pick<Handlers, 'project.open' | 'project.list' | 'project.remove' | 'project.pickFolder'> {
  const { store, clock, events } = services
  return {
    'project.open': async ({ path }) => {
      const root = await resolveProjectFolder(path, services.homeDir)
      // The data folder holds the store, its backups and the proxy's recordings: the agent's tools would work beside
      // them, and the Files view would write among them. The recordings' own folder opens as the read-only project
      // the proxy made for them.
      const dataDir = await dataFolderHolding(root, services.info.dataDir)
      if (dataDir) throw new RpcError('invalid_input', `${root} is inside Loupe's data folder (${dataDir}: its store, backups and recordings), not a project's folder: open the project's own folder`)
      const project = projectView(services, store.projects.open(root, clock.now()))
      events.emit('project.opened', project)
      return project
    },
    'project.list': () => {
      const holdsOf = workingFolders(services)
      return store.projects.list().map((p) => projectView(services, p, holdsOf))
    },
    'project.remove': ({ projectId }) => {
      if (!store.projects.get(projectId)) throw new RpcError('not_found', `No project ${projectId}`)
      // A turn running in one of its sessions would go on unseen, with no sidebar row to come back to it by.
      const busy = store.sessions.listByProject(projectId).find((s) => services.sessions.activity(s.id) !== null)
      if (busy) throw new RpcError('busy', `A turn is running in "${busy.title}": wait for it or stop it (Esc), then remove the project from the list`)
      const removed = store.projects.hide(projectId, clock.now())
      if (removed) events.emit('project.removed', { projectId })
      return { removed }
    },
    'project.pickFolder': async () => {
      if (!services.pickFolder) throw new RpcError('unsupported', 'This host has no folder dialog: type the folder path')
      return { path: await services.pickFolder() }
    },
  }
}
