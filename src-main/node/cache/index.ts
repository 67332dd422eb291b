/** Cache-hit attribution over the store (docs/cache-attribution.md): the adapter the session runtime calls. */
export { attributePass, forgetSessionCache } from './attribute-pass'
export type { AttributeOptions } from './attribute-pass'
export { sessionCacheSummary, priceSessionEdit } from './summary'
export type { SessionCacheReport, CacheSummaryOptions } from './summary'
export { cacheModels } from './models'
export { diagnosisFromResponse, contextFromStored, requestFromBody, storeDescriber } from './stored'
