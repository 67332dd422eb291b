import { call } from '../../platform/client'
import { useCacheStore } from '../../state/cache'
import { useChatStore } from '../../state/chat'
import { useSettingsStore } from '../../state/settings'
import { loadSession } from '../chat/actions'
import { loadSettings } from '../settings/actions'

/** Reads a session's cache summary and passes (and the model table, for what the cache saved). */
export async function loadCache(sessionId: string): Promise<void> {
  const store = useCacheStore.getState()
  store.cacheLoading(sessionId)
  try {
    const [summary, passes] = await Promise.all([call('session.cacheSummary', { sessionId }), call('pass.list', { sessionId })])
    store.cacheLoaded(sessionId, summary, passes)
  } catch (err) {
    store.cacheFailed(sessionId, `Could not read the cache figures: ${err instanceof Error ? err.message : String(err)}`)
  }
  if (!useChatStore.getState().bySession[sessionId]?.loaded) await loadSession(sessionId)
  if (!useSettingsStore.getState().data) await loadSettings()
}
