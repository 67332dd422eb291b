/**
 * Pretty-prints a request body for reading, and says on which lines each block (`tools[3]`, `system[1]`,
 * `messages[4]`) and each `cache_control` marker ended up, so the request view can draw breakpoint rules and label
 * blocks without searching the text.
 *
 * The output is byte-for-byte `JSON.stringify(body, null, 2)` when the keys keep their wire order (a test holds
 * this), so what is shown is the captured body, only re-indented. `cache` order moves tools, system and messages
 * to the end in cache order (tools → system → messages), for the diff between passes.
 */

export const AREAS = ['tools', 'system', 'messages'] as const
export type Area = (typeof AREAS)[number]
export type KeyOrder = 'wire' | 'cache'

/** Lines are 1-based and inclusive, as Monaco counts them. */
export interface PrettyBlock {
  readonly path: string
  readonly area: Area
  readonly index: number
  readonly startLine: number
  readonly endLine: number
}

/** An object carrying `cache_control`: the API caches the prefix up to and including it. */
export interface PrettyMarker {
  /** The block it sits in (`messages[6]`), or null for a top-level `cache_control` (automatic caching). */
  readonly blockPath: string | null
  /** The marked object's own path (`messages[6].content[1]`). */
  readonly path: string
  /** The line of the marked object's closing brace: the rule is drawn just below it. */
  readonly endLine: number
  readonly ttl: '5m' | '1h'
}

export interface PrettyRequest {
  readonly text: string
  readonly lineCount: number
  readonly blocks: ReadonlyArray<PrettyBlock>
  readonly markers: ReadonlyArray<PrettyMarker>
}

const INDENTS: string[] = ['']
function indentOf(n: number): string {
  while (INDENTS.length <= n) INDENTS.push(' '.repeat(INDENTS.length))
  return INDENTS[n]!
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function ttlOf(control: unknown): '5m' | '1h' {
  return isRecord(control) && control.ttl === '1h' ? '1h' : '5m'
}

class Printer {
  readonly chunks: string[] = []
  line = 1
  readonly markers: PrettyMarker[] = []
  blockPath: string | null = null

  newline(indent: number): void {
    this.chunks.push('\n' + indentOf(indent))
    this.line++
  }

  value(v: unknown, indent: number, path: string): void {
    if (Array.isArray(v)) return this.array(v, indent, path)
    if (isRecord(v)) return this.object(v, Object.keys(v), indent, path)
    this.chunks.push(JSON.stringify(v) ?? 'null')
  }

  array(list: ReadonlyArray<unknown>, indent: number, path: string): void {
    if (list.length === 0) {
      this.chunks.push('[]')
      return
    }
    this.chunks.push('[')
    for (let i = 0; i < list.length; i++) {
      this.newline(indent + 2)
      this.value(list[i], indent + 2, `${path}[${i}]`)
      if (i < list.length - 1) this.chunks.push(',')
    }
    this.newline(indent)
    this.chunks.push(']')
  }

  object(record: Record<string, unknown>, keys: ReadonlyArray<string>, indent: number, path: string, onKey?: (key: string) => boolean): void {
    // JSON.stringify leaves out undefined members; a parsed body has none, but a caller's object might.
    const present = keys.filter((k) => record[k] !== undefined)
    if (present.length === 0) {
      this.chunks.push('{}')
      return
    }
    this.chunks.push('{')
    for (let i = 0; i < present.length; i++) {
      const key = present[i]!
      this.newline(indent + 2)
      this.chunks.push(JSON.stringify(key) + ': ')
      if (!onKey?.(key)) this.value(record[key], indent + 2, path === '' ? key : `${path}.${key}`)
      if (i < present.length - 1) this.chunks.push(',')
    }
    this.newline(indent)
    this.chunks.push('}')
    if (Object.prototype.hasOwnProperty.call(record, 'cache_control') && record.cache_control !== undefined) {
      this.markers.push({ blockPath: this.blockPath, path: path === '' ? '(request)' : path, endLine: this.line, ttl: ttlOf(record.cache_control) })
    }
  }
}

function orderedKeys(body: Record<string, unknown>, order: KeyOrder): string[] {
  const keys = Object.keys(body)
  if (order === 'wire') return keys
  const areas = AREAS.filter((a) => keys.includes(a))
  return [...keys.filter((k) => !(AREAS as ReadonlyArray<string>).includes(k)), ...areas]
}

/** Pretty-prints a parsed request body with the line ranges of its blocks and markers. */
export function prettyRequest(body: Record<string, unknown>, order: KeyOrder = 'wire'): PrettyRequest {
  const p = new Printer()
  const blocks: PrettyBlock[] = []
  p.object(body, orderedKeys(body, order), 0, '', (key) => {
    const list = body[key]
    if (!(AREAS as ReadonlyArray<string>).includes(key) || !Array.isArray(list)) return false
    const area = key as Area
    if (list.length === 0) {
      p.chunks.push('[]')
      return true
    }
    p.chunks.push('[')
    for (let i = 0; i < list.length; i++) {
      p.newline(4)
      const path = `${area}[${i}]`
      const startLine = p.line
      p.blockPath = path
      p.value(list[i], 4, path)
      p.blockPath = null
      blocks.push({ path, area, index: i, startLine, endLine: p.line })
      if (i < list.length - 1) p.chunks.push(',')
    }
    p.newline(2)
    p.chunks.push(']')
    return true
  })
  blocks.sort((a, b) => AREAS.indexOf(a.area) - AREAS.indexOf(b.area) || a.index - b.index)
  return { text: p.chunks.join(''), lineCount: p.line, blocks, markers: p.markers }
}

/** Parses a captured body; null when it is not a JSON object (then only the raw bytes can be shown). */
export function parseBody(body: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(body)
    return isRecord(parsed) ? parsed : null
  } catch {
    return null
  }
}
