import { resolveProjectFolder } from '../../node/projects/resolve-folder'
import { RpcError } from '../errors'
import type { Handlers } from '../dispatch'
import type { Services } from '../services'
import { projectView, workingFolders } from './working-folder'

export function projectHandlers(services: Services): Pick<Handlers, 'project.open' | 'project.list' | 'project.pickFolder'> {
  const { store, clock, events } = services
  return {
    'project.open': async ({ path }) => {
      const root = await resolveProjectFolder(path, services.homeDir)
      const project = projectView(services, store.projects.open(root, clock.now()))
      events.emit('project.opened', project)
      return project
    },
    'project.list': () => {
      const holdsOf = workingFolders(services)
      return store.projects.list().map((p) => projectView(services, p, holdsOf))
    },
    'project.pickFolder': async () => {
      if (!services.pickFolder) throw new RpcError('unsupported', 'This host has no folder dialog: type the folder path')
      return { path: await services.pickFolder() }
    },
  }
}
