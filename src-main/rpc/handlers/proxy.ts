import { ProxyController, ProxyError } from '../../node/proxy/controller'
import type { Handlers } from '../dispatch'
import { RpcError } from '../errors'
import type { Services } from '../services'
import { projectView } from './working-folder'

/**
 * The capture proxy switch. The proxy lives as long as the host process; its recorded passes reach the renderer as
 * `pass.completed` (the inspector of a captured session updates live) and its new sessions as `session.created`
 * (after `project.opened` for their project); a
 * start or a stop is announced as `proxy.changed`, so every window's panel shows whether it runs.
 */
export function proxyHandlers(services: Services): Pick<Handlers, 'proxy.start' | 'proxy.stop' | 'proxy.status'> {
  const { events } = services
  const proxy = new ProxyController({
    store: services.store,
    clock: services.clock,
    dataDir: services.info.dataDir,
    modelKind: () => services.info.model.kind,
    log: services.log,
    onSessionCreated: (session) => {
      // The captured project may be new too (the first client ever recorded): every window lists it first.
      const project = services.store.projects.get(session.projectId)
      if (project) events.emit('project.opened', projectView(services, project))
      events.emit('session.created', session)
    },
    onPassRecorded: (sessionId, pass) => events.emit('pass.completed', { sessionId, pass: pass as never }),
  })
  services.atClose(() => proxy.stop())
  return {
    'proxy.start': async ({ port, upstream }) => {
      try {
        const status = await proxy.start({ ...(port !== undefined ? { port } : {}), ...(upstream !== undefined ? { upstream } : {}) })
        events.emit('proxy.changed', { running: true })
        return status as never
      } catch (err) {
        if (err instanceof ProxyError) throw new RpcError(err.kind === 'running' ? 'conflict' : err.kind === 'upstream_refused' ? 'permission_denied' : 'io_error', err.message)
        throw err
      }
    },
    'proxy.stop': async () => {
      const stopped = await proxy.stop()
      events.emit('proxy.changed', { running: false })
      return stopped as never
    },
    'proxy.status': () => proxy.status() as never,
  }
}
