/**
 * The simulator's token counter: deterministic, fast, documented (docs/simulator.md "Token counter").
 *
 * No accurate offline tokenizer exists for current models (docs/reference/anthropic-api.md §7.2), so this is a
 * rule-based count that behaves like a BPE on English text and code:
 *   - a run of ASCII letters is one token per 10 letters (rounded up): most words are one token;
 *   - a run of digits is one token per 3 digits;
 *   - a run of ASCII punctuation is one token per 2 characters;
 *   - a run of whitespace is one token per 8 characters, except that one space just before a word, number or
 *     punctuation mark is part of that token (" explain" is one token), so ordinary spacing is free;
 *   - any other character (accented letters, CJK, emoji) is one token per UTF-16 code unit pair or unit.
 * Calibrated on the recorded pydantic-ai exchange (test_anthropic_cache_real_api.yaml), where the rules give the
 * same counts as the real API for its prose (see test/simulator/tokens.test.ts).
 */

const LETTER = 1
const DIGIT = 2
const SPACE = 3
const PUNCT = 4
const OTHER = 5

const LETTERS_PER_TOKEN = 10
const DIGITS_PER_TOKEN = 3
const PUNCT_PER_TOKEN = 2
const SPACES_PER_TOKEN = 8

function classOf(code: number): number {
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) return LETTER
  if (code >= 48 && code <= 57) return DIGIT
  if (code === 32 || code === 10 || code === 9 || code === 13 || code === 12 || code === 11) return SPACE
  if (code > 32 && code < 127) return PUNCT
  return OTHER
}

/** Counts the tokens of one string. Empty text is 0 tokens. */
export function countTextTokens(text: string): number {
  let tokens = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const cls = classOf(text.charCodeAt(i))
    if (cls === OTHER) {
      // A surrogate pair is one character, one token.
      const code = text.charCodeAt(i)
      i += code >= 0xd800 && code <= 0xdbff && i + 1 < n ? 2 : 1
      tokens += 1
      continue
    }
    let j = i + 1
    while (j < n && classOf(text.charCodeAt(j)) === cls) j++
    const len = j - i
    switch (cls) {
      case LETTER:
        tokens += Math.ceil(len / LETTERS_PER_TOKEN)
        break
      case DIGIT:
        tokens += Math.ceil(len / DIGITS_PER_TOKEN)
        break
      case PUNCT:
        tokens += Math.ceil(len / PUNCT_PER_TOKEN)
        break
      case SPACE: {
        // One trailing space before a non-space character belongs to the next token.
        const absorbed = j < n && text.charCodeAt(j - 1) === 32 ? 1 : 0
        tokens += Math.ceil((len - absorbed) / SPACES_PER_TOKEN)
        break
      }
    }
    i = j
  }
  return tokens
}
