import { call } from '../../platform/client'
import { useCacheStore } from '../../state/cache'
import { useChatStore } from '../../state/chat'
import { useSettingsStore } from '../../state/settings'
import { loadSession } from '../chat/actions'
import { loadSettings } from '../settings/actions'

/**
 * The number of each session's latest read. Reads of one session overlap (each pass that completes asks again, and
 * the first read of a session attributes its passes, which takes longer): only the latest read's answer is shown,
 * so figures read before a pass completed never replace those read after it.
 */
let reads = 0
const latestRead = new Map<string, number>()

/** Reads a session's cache summary and passes (and the model table, for what the cache saved). */
export async function loadCache(sessionId: string): Promise<void> {
  const read = ++reads
  latestRead.set(sessionId, read)
  const store = useCacheStore.getState()
  store.cacheLoading(sessionId)
  try {
    const [summary, passes] = await Promise.all([call('session.cacheSummary', { sessionId }), call('pass.list', { sessionId })])
    if (latestRead.get(sessionId) === read) store.cacheLoaded(sessionId, summary, passes)
  } catch (err) {
    if (latestRead.get(sessionId) === read) store.cacheFailed(sessionId, `Could not read the cache figures: ${err instanceof Error ? err.message : String(err)}`)
  }
  if (!useChatStore.getState().bySession[sessionId]?.loaded) await loadSession(sessionId)
  if (!useSettingsStore.getState().data) await loadSettings()
}
