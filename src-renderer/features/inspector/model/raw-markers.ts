/**
 * Where each `cache_control` member sits in the raw request bytes, by the path of the object that carries it (the
 * paths `model/pretty.ts` gives its markers: `system[0]`, `messages[6].content[1]`, `(request)` for a top-level one),
 * so a breakpoint chip in the Raw bytes view can show the bytes where its prefix ends.
 *
 * The raw text is scanned as JSON, not searched for the words `"cache_control"`: a message's text may contain them,
 * and the same marker appears once per breakpoint. Offsets are UTF-16 indices into the text, as Monaco's model counts
 * them (`getPositionAt`).
 */

/** The `"cache_control": {…}` member: from its key's opening quote to the end of its value. */
export interface RawRange {
  readonly start: number
  readonly end: number
}

class Scanner {
  at = 0
  readonly found = new Map<string, RawRange>()
  constructor(readonly text: string) {}

  fail(): never {
    throw new SyntaxError(`not JSON at ${this.at}`)
  }

  space(): void {
    const t = this.text
    while (this.at < t.length) {
      const c = t.charCodeAt(this.at)
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return
      this.at++
    }
  }

  string(): string {
    const t = this.text
    if (t[this.at] !== '"') this.fail()
    const start = this.at
    this.at++
    let escaped = false
    while (this.at < t.length) {
      const c = t[this.at++]
      if (c === '\\') {
        this.at++
        escaped = true
      } else if (c === '"') return escaped ? (JSON.parse(t.slice(start, this.at)) as string) : t.slice(start + 1, this.at - 1)
    }
    return this.fail()
  }

  value(path: string): void {
    this.space()
    const c = this.text[this.at]
    if (c === '{') return this.object(path)
    if (c === '[') return this.array(path)
    if (c === '"') {
      this.string()
      return
    }
    // A number, true, false or null: up to the next delimiter.
    const start = this.at
    while (this.at < this.text.length && !',]} \n\r\t'.includes(this.text[this.at]!)) this.at++
    if (this.at === start) this.fail()
  }

  array(path: string): void {
    this.at++
    this.space()
    if (this.text[this.at] === ']') {
      this.at++
      return
    }
    for (let i = 0; ; i++) {
      this.value(`${path}[${i}]`)
      this.space()
      const c = this.text[this.at++]
      if (c === ']') return
      if (c !== ',') this.fail()
    }
  }

  object(path: string): void {
    this.at++
    this.space()
    if (this.text[this.at] === '}') {
      this.at++
      return
    }
    for (;;) {
      this.space()
      const keyAt = this.at
      const key = this.string()
      this.space()
      if (this.text[this.at++] !== ':') this.fail()
      this.value(path === '' ? key : `${path}.${key}`)
      if (key === 'cache_control') this.found.set(path === '' ? '(request)' : path, { start: keyAt, end: this.at })
      this.space()
      const c = this.text[this.at++]
      if (c === '}') return
      if (c !== ',') this.fail()
    }
  }
}

/**
 * The `cache_control` members of a raw JSON body by the path of the object carrying each; an empty map when the text
 * is not JSON (then it has no breakpoints the view could place either).
 */
export function rawMarkerRanges(text: string): ReadonlyMap<string, RawRange> {
  const scanner = new Scanner(text)
  try {
    scanner.value('')
    return scanner.found
  } catch {
    return new Map()
  }
}
