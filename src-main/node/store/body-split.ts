/**
 * Splits a request body into a skeleton and segments (each tool, each system block, each message) so that the
 * store keeps every distinct segment once, and joins them back into the exact bytes.
 *
 * Exactness rests on one fact: the SDK writes the body with `JSON.stringify`, so `JSON.stringify(JSON.parse(body))`
 * gives back the same bytes. Where that does not hold (a body written some other way), the whole body is one
 * segment. Either way the caller checks the joined bytes against the captured hash before storing.
 */
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

/**
 * The marker that stands for an area's items in the skeleton. It names the first segment and how many follow,
 * so the skeleton stays a few hundred bytes however long the conversation, and equal skeletons are stored once.
 */
function placeholder(nonce: string, first: number, count: number): string {
  return `\u0000${nonce}:${first}:${count}\u0000`
}

/** A marker prefix that the body does not contain, so a placeholder can never match the request's own text. */
function pickNonce(body: string): string {
  for (let i = 0; ; i++) {
    const nonce = `seg${i}`
    if (!body.includes(nonce)) return nonce
  }
}

export function splitBody(body: string): SplitBody {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return wholeBody(body)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || JSON.stringify(parsed) !== body) return wholeBody(body)
  const nonce = pickNonce(body)
  const record = parsed as Record<string, unknown>
  const segments: Segment[] = []
  const clone: Record<string, unknown> = { ...record }
  for (const area of AREAS) {
    const list = record[area]
    if (!Array.isArray(list)) continue
    const first = segments.length
    list.forEach((item, i) => segments.push({ path: `${area}[${i}]`, text: JSON.stringify(item) }))
    clone[area] = placeholder(nonce, first, list.length)
  }
  const split = { skeleton: `${nonce}\n${JSON.stringify(clone)}`, segments }
  return joinBody(split.skeleton, segments.map((s) => s.text)) === body ? split : wholeBody(body)
}

function wholeBody(body: string): SplitBody {
  return { skeleton: '\n\u0000', segments: [{ path: 'body', text: body }] }
}

/** The inverse of splitBody: `JSON.stringify` of an array is `[` + its items' JSON joined by `,` + `]`. */
export function joinBody(skeleton: string, texts: ReadonlyArray<string>): string {
  const newline = skeleton.indexOf('\n')
  const nonce = skeleton.slice(0, newline)
  const json = skeleton.slice(newline + 1)
  if (nonce === '' && json === '\u0000') return texts[0] ?? ''
  // A placeholder inside JSON text is the quoted, escaped form of `\u0000<nonce>:<first>:<count>\u0000`.
  const pattern = new RegExp(`"\\\\u0000${nonce}:(\\d+):(\\d+)\\\\u0000"`, 'g')
  return json.replace(pattern, (_m, first: string, count: string) => {
    const start = Number(first)
    const items = texts.slice(start, start + Number(count))
    if (items.length !== Number(count)) throw new Error(`segments ${first}+${count} missing`)
    return `[${items.join(',')}]`
  })
}
