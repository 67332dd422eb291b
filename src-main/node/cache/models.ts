/** The engine's model lookup over the app's price table (src-main/node/model/models.ts). */
import { UNKNOWN_MODEL_MIN_CACHEABLE, type CacheModel, type ModelLookup } from '../../engine/cache'
import { findModel } from '../model/models'

export const cacheModels: ModelLookup = (id: string): CacheModel => {
  const info = findModel(id)
  if (!info) return { id, minCacheableTokens: UNKNOWN_MODEL_MIN_CACHEABLE, prices: null }
  const p = info.prices
  return {
    id,
    minCacheableTokens: info.minCacheableTokens,
    prices: { inputPerMTok: p.inputPerMTok, outputPerMTok: p.outputPerMTok, cacheWrite5mPerMTok: p.cacheWrite5mPerMTok, cacheWrite1hPerMTok: p.cacheWrite1hPerMTok, cacheReadPerMTok: p.cacheReadPerMTok },
  }
}
