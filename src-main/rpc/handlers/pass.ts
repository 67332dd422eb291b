import { hasStaleAttribution, refreshStaleAttributions } from '../../node/cache'
import { findModel } from '../../node/model/models'
import type { PassSummary } from '../../node/store/passes'
import type { Handlers } from '../dispatch'
import { RpcError } from '../errors'
import type { Services } from '../services'

/**
 * A pass as a list carries it: without the attribution's cache facts (the keys each breakpoint read and wrote, for
 * the next pass's prediction) and the response headers, which only `pass.get` shows. They were two fifths of each
 * row, and a window reads the list again at every pass of a session that may hold thousands.
 */
function listed(pass: PassSummary): PassSummary {
  const { facts: _facts, ...attribution } = (pass.attribution ?? {}) as Record<string, unknown>
  return {
    ...pass,
    attempts: pass.attempts.map(({ responseHeaders: _headers, ...attempt }) => attempt) as never,
    ...(pass.attribution ? { attribution: attribution as never } : {}),
  }
}

export function passHandlers(services: Services): Pick<Handlers, 'pass.list' | 'pass.live' | 'pass.get'> {
  const { store } = services
  return {
    'pass.list': ({ sessionId }) => {
      if (!store.sessions.get(sessionId)) throw new RpcError('not_found', `No session ${sessionId}`)
      // A session last opened under earlier attribution rules is shown as the current rules see it.
      const passes = store.passes.list(sessionId)
      return (refreshStaleAttributions(store, passes) ? store.passes.list(sessionId) : passes).map(listed) as never
    },
    'pass.live': ({ sessionId }) => {
      if (!store.sessions.get(sessionId)) throw new RpcError('not_found', `No session ${sessionId}`)
      return services.sessions.livePass(sessionId) as never
    },
    'pass.get': ({ passId }) => {
      let pass = store.passes.get(passId)
      if (!pass) throw new RpcError('not_found', `No pass ${passId}`)
      if (hasStaleAttribution(pass) && refreshStaleAttributions(store, store.passes.list(pass.sessionId))) pass = store.passes.get(passId)!
      return { ...pass, stripsPriorThinking: findModel(pass.model)?.stripsPriorThinking ?? false } as never
    },
  }
}
