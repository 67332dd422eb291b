/**
 * The request bodies of a thread's reconstructed passes, `JSON.stringify({model, messages})`, in the form the store
 * takes without building them (`SplitRequest`, `store.passes.insertSplit`).
 *
 * A thread's requests share almost all of their history: request n+1 is request n plus the answer and the next
 * prompt. Built whole, a long session's bodies add up to tens of megabytes (fa812bfe: 157 bodies, 33.7 MB, from a
 * 3.5 MB file), and stringifying, parsing, splitting and hashing each one whole is what made the import slow. Here
 * each message is stringified and hashed once (kept per message object: reconstructPasses shares them between
 * requests), and the body's sha256 is carried along the shared prefix: the hash state after each message of the
 * previous body is kept, so a body costs the hashing of its new messages only. A message rebuilt for each request
 * (the pending answer and its results) shares its content blocks with the others, so block texts are kept too.
 *
 * The bytes are those of `JSON.stringify({model, messages})`: that is `{"model":<model>,"messages":[` + each
 * message's JSON joined by `,` + `]}`. The tests compare every stored body of the real fixtures with it.
 */
import { createHash, type Hash } from 'node:crypto'
import type { WireMessage } from '../../engine/model/wire'
import { sha256Hex } from '../store/blobs'
import { splitRecord } from '../store/body-split'
import type { SplitRequest } from '../store/passes'

interface MessageText {
  readonly text: string
  readonly sha256: string
  readonly bytes: number
  /** Whether the text holds `seg` at all: the store's skeleton markers are `seg` and digits (body-split). */
  readonly seg: boolean
}

interface Step {
  readonly message: MessageText
  /** The body's hash state after this message. */
  readonly state: Hash
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null

export class PassBodies {
  private readonly texts = new WeakMap<WireMessage, MessageText>()
  private readonly blocks = new WeakMap<object, string>()
  private prefix: string | null = null
  private prefixState: Hash | null = null
  /** The previous body's messages with the hash state after each. */
  private readonly steps: Step[] = []

  private textOf(message: WireMessage): MessageText {
    let t = this.texts.get(message)
    if (t === undefined) {
      const text = this.messageJson(message)
      t = { text, sha256: sha256Hex(text), bytes: Buffer.byteLength(text, 'utf8'), seg: text.includes('seg') }
      this.texts.set(message, t)
    }
    return t
  }

  /**
   * `JSON.stringify(message)`: for the plain `{role, content: [blocks]}` every message is, from the JSON of its
   * blocks (that is how JSON.stringify writes an object and an array); anything else is stringified whole.
   */
  private messageJson(message: WireMessage): string {
    const keys = Object.keys(message)
    const content: unknown = message.content
    if (keys.length !== 2 || keys[0] !== 'role' || keys[1] !== 'content' || typeof message.role !== 'string' || !Array.isArray(content) || !content.every(isObject)) return JSON.stringify(message)
    const parts = content.map((block: object) => {
      let text = this.blocks.get(block)
      if (text === undefined) this.blocks.set(block, (text = JSON.stringify(block)))
      return text
    })
    return `{"role":${JSON.stringify(message.role)},"content":[${parts.join(',')}]}`
  }

  /** The body of a request with these messages, split and hashed for `insertSplit`. */
  body(model: string, messages: ReadonlyArray<WireMessage>): SplitRequest {
    const prefix = `{"model":${JSON.stringify(model)},"messages":[`
    if (prefix !== this.prefix || this.prefixState === null) {
      this.prefix = prefix
      this.prefixState = createHash('sha256').update(prefix, 'utf8')
      this.steps.length = 0
    }
    const texts = messages.map((m) => this.textOf(m))
    let shared = 0
    while (shared < this.steps.length && shared < texts.length && this.steps[shared]!.message.sha256 === texts[shared]!.sha256) shared++
    this.steps.length = shared
    for (let i = shared; i < texts.length; i++) {
      const state = (i === 0 ? this.prefixState : this.steps[i - 1]!.state).copy()
      if (i > 0) state.update(',', 'utf8')
      state.update(texts[i]!.text, 'utf8')
      this.steps.push({ message: texts[i]!, state })
    }
    const end = (texts.length === 0 ? this.prefixState : this.steps[texts.length - 1]!.state).copy()
    const sha256 = end.update(']}', 'utf8').digest('hex')

    const parts: string[] = [prefix]
    let bytes = Buffer.byteLength(prefix, 'utf8') + Buffer.byteLength(']}') + Math.max(0, texts.length - 1)
    texts.forEach((t, i) => {
      if (i > 0) parts.push(',')
      parts.push(t.text)
      bytes += t.bytes
    })
    parts.push(']}')
    const split = splitRecord(
      { model, messages },
      (m) => this.textOf(m as WireMessage).text,
      (m, marker) => {
        const t = this.textOf(m as WireMessage)
        return t.seg && t.text.includes(marker)
      },
    )
    return { parts, sha256, bytes, split, segmentHashes: texts.map((t) => t.sha256) }
  }
}
