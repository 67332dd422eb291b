import type { PassAttribution } from '../../engine/cache'
import { priceSessionEdit, sessionCacheSummary } from '../../node/cache'
import type { Handlers } from '../dispatch'
import { RpcError } from '../errors'
import type { Services } from '../services'

export function cacheHandlers(services: Services): Pick<Handlers, 'session.cacheSummary' | 'cache.priceEdit'> {
  const { store, clock } = services
  const requireSession = (sessionId: string): void => {
    if (!store.sessions.get(sessionId)) throw new RpcError('not_found', `No session ${sessionId}`)
  }
  return {
    'session.cacheSummary': ({ sessionId }) => {
      requireSession(sessionId)
      const report = sessionCacheSummary(store, sessionId)
      return {
        sessionId,
        totals: report.totals,
        byCause: [...report.byCause],
        agreement: report.agreement,
        diagnosticsDisagreements: report.diagnosticsDisagreements,
        whatIfs: report.whatIfs,
        passes: report.passes.map(({ passId, seq, attribution }) => timelineRow(passId, seq, attribution)),
      }
    },
    'cache.priceEdit': ({ sessionId, edit }) => {
      requireSession(sessionId)
      return priceSessionEdit(store, sessionId, edit, clock.now())
    },
  }
}

function timelineRow(passId: string, seq: number, a: PassAttribution | null) {
  return {
    passId,
    seq,
    outcome: a?.outcome ?? null,
    cause: a?.cause.kind ?? null,
    summary: a?.summary ?? null,
    missTokens: a?.miss.tokens ?? 0,
    missUsd: a?.miss.usd ?? null,
  }
}
