/**
 * Response, tool-use and request ids in the API's formats (docs/reference/anthropic-api.md §1.3): `msg_01…`,
 * `toolu_01…`, `req_011C…`. Derived from a seed and a counter, so a seeded simulator is fully deterministic; the
 * default seed is random so that ids from two runs of the app never collide in its store.
 */
import { createHash, randomBytes } from 'node:crypto'

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

function base58(bytes: Uint8Array, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += BASE58[bytes[i % bytes.length]! % 58]
  return out
}

export class IdSource {
  private counter = 0
  private readonly seed: string

  constructor(seed?: string) {
    this.seed = seed ?? randomBytes(8).toString('hex')
  }

  private next(kind: string): string {
    const digest = createHash('sha256').update(`${this.seed}:${kind}:${++this.counter}`).digest()
    return base58(digest, 22)
  }

  messageId(): string {
    return `msg_01${this.next('msg')}`
  }

  toolUseId(): string {
    return `toolu_01${this.next('toolu')}`
  }

  requestId(): string {
    return `req_011C${this.next('req')}`
  }
}
