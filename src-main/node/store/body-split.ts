/**
 * Splits a request body into a skeleton and segments (each tool, each system block, each message) so that the
 * store keeps every distinct segment once, and joins them back into the exact bytes.
 *
 * Exactness rests on one fact: the SDK writes the body with `JSON.stringify`, so `JSON.stringify(JSON.parse(body))`
 * gives back the same bytes. Where that does not hold (a body written some other way), the whole body is one
 * segment. Either way the caller checks the joined bytes against the captured hash before storing.
 */
import { randomBytes } from 'node:crypto'

export interface Segment {
  /** Where the segment sits in the request: `tools[3]`, `system[1]`, `messages[12]`, or `body`. */
  readonly path: string
  readonly text: string
}

export interface SplitBody {
  readonly skeleton: string
  readonly segments: ReadonlyArray<Segment>
}

const AREAS = ['tools', 'system', 'messages'] as const

function placeholder(nonce: string, index: number): string {
  return `\u0000${nonce}:${index}\u0000`
}

export function splitBody(body: string): SplitBody {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return wholeBody(body)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || JSON.stringify(parsed) !== body) return wholeBody(body)
  // The nonce keeps a placeholder from ever matching text that happens to be inside the request.
  const nonce = randomBytes(8).toString('hex')
  const record = parsed as Record<string, unknown>
  const segments: Segment[] = []
  const clone: Record<string, unknown> = { ...record }
  for (const area of AREAS) {
    const list = record[area]
    if (!Array.isArray(list)) continue
    clone[area] = list.map((item, i) => {
      const ph = placeholder(nonce, segments.length)
      segments.push({ path: `${area}[${i}]`, text: JSON.stringify(item) })
      return ph
    })
  }
  const skeleton = `${nonce}\n${JSON.stringify(clone)}`
  const split = { skeleton, segments }
  return joinBody(split.skeleton, segments.map((s) => s.text)) === body ? split : wholeBody(body)
}

function wholeBody(body: string): SplitBody {
  return { skeleton: '\n\u0000', segments: [{ path: 'body', text: body }] }
}

/** The inverse of splitBody. */
export function joinBody(skeleton: string, texts: ReadonlyArray<string>): string {
  const newline = skeleton.indexOf('\n')
  const nonce = skeleton.slice(0, newline)
  const json = skeleton.slice(newline + 1)
  if (nonce === '' && json === '\u0000') return texts[0] ?? ''
  // A placeholder inside JSON text is the quoted, escaped form of `\u0000<nonce>:<n>\u0000`.
  const pattern = new RegExp(`"\\\\u0000${nonce}:(\\d+)\\\\u0000"`, 'g')
  return json.replace(pattern, (_m, n: string) => {
    const text = texts[Number(n)]
    if (text === undefined) throw new Error(`segment ${n} missing`)
    return text
  })
}
