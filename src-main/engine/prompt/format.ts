/**
 * Number formatting for prompt text. Written out rather than `toLocaleString`, whose output depends on the ICU data
 * a runtime was built with: prompt bytes must not.
 */

/** 40000 → "40,000". Integers only; the sign is kept. */
export function groupDigits(value: number): string {
  const sign = value < 0 ? '-' : ''
  const digits = String(Math.trunc(Math.abs(value)))
  let out = ''
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ','
    out += digits[i]
  }
  return sign + out
}
