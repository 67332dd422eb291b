import { ProjectSettingsError, SettingsValueError, type SettingsView } from '../../node/settings'
import type { Handlers } from '../dispatch'
import { RpcError } from '../errors'
import type { Services } from '../services'
import { notAWorkingFolder } from './working-folder'

/** Settings (docs/inspector.md "Settings"). The API key goes in and never comes back out. */
export function settingsHandlers(services: Services): Pick<Handlers, 'settings.get' | 'settings.set' | 'settings.setApiKey'> {
  const project = (projectId: string | undefined) => {
    if (projectId === undefined) return null
    const found = services.store.projects.get(projectId)
    if (!found) throw new RpcError('not_found', `No project ${projectId}`)
    return found
  }
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (err) {
      if (err instanceof ProjectSettingsError) throw new RpcError(err.code, err.message)
      if (err instanceof SettingsValueError) throw new RpcError('invalid_input', err.message)
      throw err
    }
  }
  return {
    'settings.get': ({ projectId }) => guard(() => services.settings.view(project(projectId))).then(wire),
    'settings.set': ({ app, project: change }) =>
      guard(() => {
        const target = change ? project(change.projectId) : null
        // A folder of Claude Code's logs or of the proxy's captures is not a working folder: no session compacts
        // there, and Loupe writes nothing in it (the Files view refuses the same way). Checked before any write, so
        // an app setting sent with it is not half-saved either.
        const holds = target ? notAWorkingFolder(services, target.id, target.root) : null
        if (target && holds) {
          throw new RpcError('permission_denied', `${target.root} holds ${holds}, not a project's files: Loupe writes no .loupe/config.toml there, and no session of its own runs there to compact. Open the project's own folder in Loupe to set its compaction.`)
        }
        return services.settings.update(app ?? {}, target && change ? { id: target.id, root: target.root, compaction: change.compaction } : null)
      })
        .then(wire)
        .then((view) => {
          // Every other window reads them again: a form left open there must not save over this change.
          services.events.emit('settings.changed', { projectId: change?.projectId ?? null })
          return view
        }),
    'settings.setApiKey': ({ key }) =>
      guard(async () => {
        const before = services.info.model
        const status = await services.settings.setApiKey(key)
        const after = services.info.model
        // The shell names what answers; tell every window when that switched (never the key).
        if (after.kind !== before.kind || after.label !== before.label) services.events.emit('endpoint.changed', { ...after })
        return status
      }),
  }
}

/** The view with plain arrays, as the contract's schema types it. */
function wire(view: SettingsView) {
  return { ...view, problems: [...view.problems], models: [...view.models], project: view.project ? { ...view.project, problems: [...view.project.problems] } : null }
}
