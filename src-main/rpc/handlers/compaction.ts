import type { Handlers } from '../dispatch'
import { RpcError } from '../errors'
import type { Services } from '../services'
import type { CompactOutcome } from '../../node/session/compaction'
import { requireLoupeSession, requireRuntime } from './run'

function result(outcome: CompactOutcome) {
  switch (outcome.status) {
    case 'applied':
      return { status: outcome.status, compactionId: outcome.compactionId, checkpoint: outcome.checkpoint as never }
    case 'draft':
      return { status: outcome.status, compactionId: outcome.compactionId, draft: outcome.draft as never }
    default:
      return { status: outcome.status, compactionId: outcome.compactionId, message: outcome.message }
  }
}

/** Compaction and pins (docs/compaction.md "The contract"). */
export function compactionHandlers(
  services: Services,
): Pick<Handlers, 'compaction.run' | 'compaction.apply' | 'compaction.discard' | 'compaction.cancel' | 'compaction.list' | 'pin.add' | 'pin.remove' | 'pin.list'> {
  const busy = () => new RpcError('busy', 'A turn or a compaction is already running in this session: wait for it or stop it (Esc)')
  return {
    'compaction.run': async ({ sessionId, focus, upto, instructions, dryRun }) => {
      const runtime = requireRuntime(services, sessionId)
      requireLoupeSession(services, sessionId)
      if (runtime.running) throw busy()
      const target = upto === undefined ? null : upto.startsWith('toolu_') ? ({ kind: 'tool_use', toolUseId: upto } as const) : ({ kind: 'entry', entryId: upto } as const)
      const { runId, outcome } = await runtime.compactNow(
        { focus: focus?.trim() || null, upto: target, dryRun: dryRun ?? false, instructions: instructions?.trim() || null },
        (id) => services.events.emit('run.started', { sessionId, runId: id }),
      )
      return { ...result(outcome), runId }
    },
    'compaction.apply': async ({ sessionId, draftId, summary }) => {
      const runtime = requireRuntime(services, sessionId)
      requireLoupeSession(services, sessionId)
      if (runtime.running) throw busy()
      const outcome = await runtime.applyDraft(draftId, summary)
      if (outcome === null) throw new RpcError('not_found', `No draft ${draftId} in this session (it was applied, discarded, or the app restarted)`)
      return result(outcome)
    },
    'compaction.discard': ({ sessionId, draftId }) => ({ discarded: requireRuntime(services, sessionId).discardDraft(draftId) }),
    'compaction.cancel': ({ sessionId }) => ({ cancelled: requireRuntime(services, sessionId).cancelCompaction() }),
    'compaction.list': ({ sessionId }) => {
      const runtime = requireRuntime(services, sessionId)
      return { checkpoints: runtime.compactionRecords() as never, drafts: runtime.drafts() as never, live: runtime.liveCompactionSnapshot() }
    },
    // A pin changes what a dry run waiting would make: answered once its figures count the pin (compaction.list).
    'pin.add': async ({ sessionId, text, entryId }) => {
      requireLoupeSession(services, sessionId)
      const runtime = requireRuntime(services, sessionId)
      const added = runtime.addPin({ ...(text !== undefined ? { text } : {}), ...(entryId !== undefined ? { entryId } : {}) })
      if (!added.ok) throw new RpcError(added.code === 'not_found' ? 'not_found' : 'invalid_input', added.message)
      await runtime.refreshDrafts()
      return added.pin
    },
    'pin.remove': async ({ sessionId, pinId }) => {
      const runtime = requireRuntime(services, sessionId)
      const removed = runtime.removePin(pinId)
      if (removed) await runtime.refreshDrafts()
      return { removed }
    },
    'pin.list': ({ sessionId }) => requireRuntime(services, sessionId).pins(),
  }
}
