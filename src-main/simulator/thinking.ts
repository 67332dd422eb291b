/**
 * Thinking signatures (docs/reference/anthropic-api.md §2.5): opaque to the client, checked when echoed back.
 *
 * A signature carries the display mode and a digest of the full thinking text, sealed with an HMAC over the
 * model id under a fixed key. A fixed key keeps signatures valid across restarts (a session resumed tomorrow must
 * still be accepted). The spec suggests binding the conversation prefix too; that is left out because the app may
 * legitimately rewrite earlier context (docs/simulator.md).
 */
import { createHash, createHmac } from 'node:crypto'
import { invalidRequest } from './errors'
import { SIM_MODELS } from './models'
import type { SimRequest } from './request'

const SIGNING_KEY = 'loupe-simulator-thinking-v1'
const PREFIX = 'U2lt' // "Sim" in base64, so a simulator signature is recognisable in a capture.
const DIGEST_BYTES = 16

function seal(model: string, payload: Buffer): Buffer {
  return createHmac('sha256', SIGNING_KEY).update(model).update('\u0000').update(payload).digest().subarray(0, DIGEST_BYTES)
}

function textDigest(thinking: string): Buffer {
  return createHash('sha256').update(thinking).digest().subarray(0, DIGEST_BYTES)
}

export function signThinking(model: string, thinking: string, display: 'summarized' | 'omitted' = 'summarized'): string {
  const payload = Buffer.concat([Buffer.from([display === 'omitted' ? 1 : 0]), textDigest(thinking)])
  return PREFIX + Buffer.concat([payload, seal(model, payload)]).toString('base64')
}

/** True when `signature` was issued by this simulator for `thinking` as echoed back. */
export function verifyThinking(signature: string, thinking: string): boolean {
  if (!signature.startsWith(PREFIX)) return false
  const raw = Buffer.from(signature.slice(PREFIX.length), 'base64')
  if (raw.length !== 1 + 2 * DIGEST_BYTES) return false
  const payload = raw.subarray(0, 1 + DIGEST_BYTES)
  const mac = raw.subarray(1 + DIGEST_BYTES)
  // A block signed for another model is accepted (and ignored by that model, as the API does).
  if (!SIM_MODELS.some((m) => seal(m.id, payload).equals(mac))) return false
  // An omitted block came back with `thinking: ""`; text placed in it is ignored by the API, so anything passes.
  if (payload[0] === 1) return true
  return textDigest(thinking).equals(payload.subarray(1))
}

/** §2.5: thinking blocks of the latest assistant message must come back unmodified. */
export function checkLatestThinking(request: SimRequest): void {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!
    if (message.role !== 'assistant') continue
    message.content.forEach((block, j) => {
      if (block.type !== 'thinking') return
      const signature = typeof block.signature === 'string' ? block.signature : ''
      const thinking = typeof block.thinking === 'string' ? block.thinking : ''
      if (!verifyThinking(signature, thinking)) throw invalidRequest(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`)
    })
    return
  }
}
