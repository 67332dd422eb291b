/** The engine's model lookup over the app's price table (src-main/node/model/models.ts). */
import { UNKNOWN_MODEL_MIN_CACHEABLE, walkRequest, type CacheModel, type ModelLookup, type RequestWalk } from '../../engine/cache'
import type { WireRequest } from '../../engine/model/wire'
import type { Hasher } from '../../engine/ports'
import { findModel } from '../model/models'

export const cacheModels: ModelLookup = (id: string): CacheModel => {
  const info = findModel(id)
  if (!info) return { id, minCacheableTokens: UNKNOWN_MODEL_MIN_CACHEABLE, stripsPriorThinking: false, prices: null }
  const p = info.prices
  return {
    id,
    minCacheableTokens: info.minCacheableTokens,
    stripsPriorThinking: info.stripsPriorThinking,
    prices: { inputPerMTok: p.inputPerMTok, outputPerMTok: p.outputPerMTok, cacheWrite5mPerMTok: p.cacheWrite5mPerMTok, cacheWrite1hPerMTok: p.cacheWrite1hPerMTok, cacheReadPerMTok: p.cacheReadPerMTok },
  }
}

/** Walks a request as its model's cache sees it (with or without earlier turns' thinking, §2.5). */
export function walkFor(request: WireRequest, hasher: Hasher, options: { readonly previous?: RequestWalk | null; readonly models?: ModelLookup } = {}): RequestWalk {
  const models = options.models ?? cacheModels
  return walkRequest(request, hasher, { previous: options.previous ?? null, stripsPriorThinking: models(request.model).stripsPriorThinking })
}
