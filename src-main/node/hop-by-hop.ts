/**
 * Connection-level HTTP headers (RFC 9110 §7.6.1): they describe one hop, not the message. The capture proxy never
 * forwards them, and the store never keeps them in a pass's attempts.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'])

/** Whether a header (any case) is hop-by-hop. */
export function isHopByHop(name: string): boolean {
  return HOP_BY_HOP.has(name.toLowerCase())
}
