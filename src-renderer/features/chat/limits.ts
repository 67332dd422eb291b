import { MAX_TEXT_CHARS } from '../../../src-preload/contract'

/**
 * What the chat says of a message too long to send (null when it is not): its length and the limit, in millions of
 * characters, as exact as needed to tell them apart ("2.1 M", "2.000001 M"). The draft is kept, to shorten.
 */
export function tooLongMessage(chars: number, limit: number = MAX_TEXT_CHARS): string | null {
  if (chars <= limit) return null
  let digits = 1
  while (digits < 6 && Number((chars / 1e6).toFixed(digits)) <= limit / 1e6) digits++
  const millions = (n: number, d: number) => `${Number((n / 1e6).toFixed(d))} M`
  return `This message is ${millions(chars, digits)} characters; a message can be at most ${millions(limit, 6)}. Shorten it, or save the text to a file in the project and ask the agent to read it.`
}

/**
 * Whether an error still applies to the message box: one about a refused message (`about`, trimmed) only while the
 * box holds that message; one about the session (null) always.
 */
export function errorApplies(about: string | null, draft: string): boolean {
  return about === null || about === draft.trim()
}
