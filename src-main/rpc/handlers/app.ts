import type { Services } from '../services'
import type { Handlers } from '../dispatch'

export function appHandlers(services: Services): Pick<Handlers, 'app.info' | 'app.ping'> {
  return {
    'app.info': () => services.info,
    'app.ping': () => ({ at: services.clock.now() }),
  }
}
