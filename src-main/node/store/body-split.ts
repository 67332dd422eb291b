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

/**
 * splitBody(JSON.stringify(record)) for a writer that holds the record and the JSON text of each item of its areas
 * (`itemText(item)` must be `JSON.stringify(item)`), without building, parsing or scanning the whole body: the same
 * skeleton and segments. `contains(item, marker)` may answer whether an item's text holds a marker from what the
 * writer knows of it (by default its text is searched). The store checks that the result re-assembles to the body
 * (PassRepo.insertSplit).
 */
export function splitRecord(record: Readonly<Record<string, unknown>>, itemText: (item: unknown) => string, contains?: (item: unknown, marker: string) => boolean): SplitBody {
  const segments: Segment[] = []
  const items: unknown[] = []
  const rest: Record<string, unknown> = { ...record }
  for (const area of AREAS) {
    const list = record[area]
    if (!Array.isArray(list)) continue
    rest[area] = null
    list.forEach((item, i) => {
      segments.push({ path: `${area}[${i}]`, text: itemText(item) })
      items.push(item)
    })
  }
  // pickNonce over the body: a marker (`seg` and digits) cannot straddle the `[`, `,` and `]` around items.
  const restJson = JSON.stringify(rest)
  const holds = (i: number, marker: string): boolean => (contains ? contains(items[i], marker) : segments[i]!.text.includes(marker))
  let nonce = ''
  for (let n = 0; nonce === ''; n++) {
    const candidate = `seg${n}`
    if (!restJson.includes(candidate) && !segments.some((_, i) => holds(i, candidate))) nonce = candidate
  }
  const clone: Record<string, unknown> = { ...record }
  let first = 0
  for (const area of AREAS) {
    const list = record[area]
    if (!Array.isArray(list)) continue
    clone[area] = placeholder(nonce, first, list.length)
    first += list.length
  }
  return { skeleton: `${nonce}\n${JSON.stringify(clone)}`, segments }
}

/** The inverse of splitBody: `JSON.stringify` of an array is `[` + its items' JSON joined by `,` + `]`. */
export function joinBody(skeleton: string, texts: ReadonlyArray<string>): string {
  return joinParts(skeleton, texts).join('')
}

/** joinBody as the strings it concatenates, in order (each segment text is one of them, as given). */
export function joinParts(skeleton: string, texts: ReadonlyArray<string>): string[] {
  const newline = skeleton.indexOf('\n')
  const nonce = skeleton.slice(0, newline)
  const json = skeleton.slice(newline + 1)
  if (nonce === '' && json === '\u0000') return [texts[0] ?? '']
  // A placeholder inside JSON text is the quoted, escaped form of `\u0000<nonce>:<first>:<count>\u0000`.
  const pattern = new RegExp(`"\\\\u0000${nonce}:(\\d+):(\\d+)\\\\u0000"`, 'g')
  const parts: string[] = []
  let at = 0
  for (const m of json.matchAll(pattern)) {
    const start = Number(m[1])
    const count = Number(m[2])
    if (start + count > texts.length) throw new Error(`segments ${m[1]}+${m[2]} missing`)
    parts.push(json.slice(at, m.index), '[')
    for (let i = start; i < start + count; i++) {
      if (i > start) parts.push(',')
      parts.push(texts[i]!)
    }
    parts.push(']')
    at = m.index + m[0].length
  }
  parts.push(json.slice(at))
  return parts
}
