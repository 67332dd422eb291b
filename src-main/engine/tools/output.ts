/**
 * Capping tool output. Every text a tool returns passes through here, so the model always gets at most
 * TOOL_OUTPUT_MAX_CHARS characters, and a cut always says how much was left out and how to get the rest.
 *
 * Two shapes: `head` keeps the beginning (listings and search results, whose beginning is as good as any part), and
 * `head_and_tail` keeps both ends (command output, where the summary and the error are usually last).
 */

/** A text cut to a budget: what is kept, and how many characters were dropped between `head` and `tail`. */
export interface CappedText {
  readonly head: string
  readonly tail: string
  readonly omittedChars: number
  readonly totalChars: number
}

export type CapShape = 'head' | 'head_and_tail'

/** Cuts at a line break when one is within the last fifth of the kept part, so no line is shown half. */
function cutHead(text: string, budget: number): string {
  const head = text.slice(0, budget)
  const lastBreak = head.lastIndexOf('\n')
  return lastBreak >= budget * 0.8 ? head.slice(0, lastBreak + 1) : head
}

function cutTail(text: string, budget: number): string {
  if (budget <= 0) return ''
  const tail = text.slice(text.length - budget)
  const firstBreak = tail.indexOf('\n')
  return firstBreak >= 0 && firstBreak <= budget * 0.2 ? tail.slice(firstBreak + 1) : tail
}

export function capText(text: string, maxChars: number, shape: CapShape): CappedText {
  if (text.length <= maxChars) return { head: text, tail: '', omittedChars: 0, totalChars: text.length }
  const headBudget = shape === 'head' ? maxChars : Math.ceil(maxChars / 2)
  const head = cutHead(text, headBudget)
  const tail = shape === 'head' ? '' : cutTail(text, maxChars - headBudget)
  return { head, tail, omittedChars: text.length - head.length - tail.length, totalChars: text.length }
}

/** The capped text with, where something was dropped, a note saying how much and how to get the rest. */
export function renderCapped(capped: CappedText, howToGetTheRest: string): string {
  if (capped.omittedChars === 0) return capped.head + capped.tail
  const note =
    `[… ${capped.omittedChars} of ${capped.totalChars} characters omitted here` +
    `${capped.tail === '' ? '' : '; the end follows'}. ${howToGetTheRest}]`
  const head = capped.head.endsWith('\n') || capped.head === '' ? capped.head : `${capped.head}\n`
  return capped.tail === '' ? `${head}${note}` : `${head}${note}\n${capped.tail}`
}

/** Shorthand for the common case: cap a complete text and render it. */
export function capOutput(text: string, maxChars: number, shape: CapShape, howToGetTheRest: string): string {
  return renderCapped(capText(text, maxChars, shape), howToGetTheRest)
}

/**
 * Keeps the first and last `maxChars / 2` characters of a stream without holding the rest, so a command that
 * prints gigabytes costs bounded memory. `result()` gives the same cut `capText(all, maxChars, 'head_and_tail')`
 * would give, minus the line-boundary trimming, which needs the whole text.
 */
export class HeadTailBuffer {
  private head = ''
  private tail = ''
  private total = 0
  private readonly headBudget: number
  private readonly tailBudget: number

  constructor(maxChars: number) {
    this.headBudget = Math.ceil(maxChars / 2)
    this.tailBudget = maxChars - this.headBudget
  }

  push(chunk: string): void {
    this.total += chunk.length
    let rest = chunk
    if (this.head.length < this.headBudget) {
      const room = this.headBudget - this.head.length
      this.head += rest.slice(0, room)
      rest = rest.slice(room)
    }
    if (rest === '' || this.tailBudget === 0) return
    this.tail = (this.tail + rest).slice(-this.tailBudget)
  }

  get totalChars(): number {
    return this.total
  }

  result(): CappedText {
    const kept = this.head.length + this.tail.length
    if (kept === this.total) return { head: this.head + this.tail, tail: '', omittedChars: 0, totalChars: this.total }
    const tail = cutTail(this.tail, this.tail.length)
    const head = cutHead(this.head, this.head.length)
    return { head, tail, omittedChars: this.total - head.length - tail.length, totalChars: this.total }
  }
}
