import type { Handlers } from '../dispatch'
import type { Services } from '../services'
import { appHandlers } from './app'
import { projectHandlers } from './project'
import { sessionHandlers } from './session'
import { runHandlers } from './run'
import { passHandlers } from './pass'
import { compactionHandlers } from './compaction'
import { cacheHandlers } from './cache'
import { transcriptHandlers } from './transcripts'
import { proxyHandlers } from './proxy'
import { filesHandlers } from './files'
import { settingsHandlers } from './settings'

/** Every request of the contract has exactly one handler; the type makes a missing one a compile error. */
export function createHandlers(services: Services): Handlers {
  return {
    ...appHandlers(services),
    ...projectHandlers(services),
    ...sessionHandlers(services),
    ...runHandlers(services),
    ...passHandlers(services),
    ...compactionHandlers(services),
    ...cacheHandlers(services),
    ...transcriptHandlers(services),
    ...proxyHandlers(services),
    ...filesHandlers(services),
    ...settingsHandlers(services),
  }
}
