import type { PassAttribution } from '../../engine/cache'
import { priceSessionEditMeasured, sessionCacheSummary, TokenCounter, transcriptCacheSummary } from '../../node/cache'
import type { Handlers } from '../dispatch'
import { confine } from '../../node/files/paths'
import { modelProblem } from '../../node/model/models'
import { RpcError } from '../errors'
import type { Services } from '../services'

export function cacheHandlers(services: Services): Pick<Handlers, 'session.cacheSummary' | 'cache.priceEdit'> {
  const { store, clock } = services
  // Counts kept across requests by the hash of what was counted: pricing while the user types counts one new
  // request per draft. The key names the service, so a key set in Settings does not reuse the simulator's counts.
  const counter = new TokenCounter((request) => services.sessions.countTokens(request), { salt: () => `${services.info.model.kind}:${services.info.model.label}` })
  const requireSession = (sessionId: string): void => {
    if (!store.sessions.get(sessionId)) throw new RpcError('not_found', `No session ${sessionId}`)
  }
  return {
    'session.cacheSummary': ({ sessionId }) => {
      requireSession(sessionId)
      // A session imported from a transcript has its usage, not its bytes: it is summarised from what it recorded.
      const passes = store.passes.list(sessionId)
      if (passes.length > 0 && passes.every((p) => p.source === 'transcript')) return transcriptCacheSummary(sessionId, passes)
      const report = sessionCacheSummary(store, sessionId)
      return {
        basis: 'requests' as const,
        sessionId,
        totals: report.totals,
        keepWarm: report.keepWarm,
        byCause: [...report.byCause],
        agreement: report.agreement,
        diagnosticsDisagreements: report.diagnosticsDisagreements,
        whatIfs: report.whatIfs,
        passes: report.passes.map(({ passId, seq, attribution }) => timelineRow(passId, seq, attribution)),
      }
    },
    'cache.priceEdit': async ({ sessionId, edit }) => {
      requireSession(sessionId)
      // Only a switch session.setModel would make is priced: an id the table does not know has no price to give, and a
      // retired model is no switch to make (decision 0065).
      const unknown = edit.kind === 'model' ? modelProblem(edit.model, clock.now()) : null
      if (unknown) throw new RpcError('invalid_input', unknown)
      const session = store.sessions.get(sessionId)
      const project = session ? store.projects.get(session.projectId) : null
      if (project && (edit.kind === 'instruction_file' || edit.kind === 'memory_file')) {
        // The path is priced as the Files view would save it: one outside the project and the data folder is refused,
        // as the save would refuse it, rather than priced as an edit that moves nothing.
        const confined = await confine(edit.path, { root: project.root, loupeHome: services.loupeHome, homeDir: services.homeDir })
        if (!confined.ok) throw new RpcError(confined.code, confined.message)
      }
      return priceSessionEditMeasured(store, sessionId, edit, clock.now(), {
        counter,
        ...(project
          ? {
              files: {
                roots: { root: project.root, loupeHome: services.loupeHome, homeDir: services.homeDir },
                // What the session's next message would say of changed files: the runtime's own baseline.
                fileChangeNotes: (after) => services.sessions.get(sessionId)?.fileChangeNotes(after) ?? [],
              },
            }
          : {}),
        // After a compaction the next pass sends the summary: the runtime builds that request to size the price on.
        nextRequest: () => services.sessions.get(sessionId)?.nextRequest() ?? null,
      })
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
