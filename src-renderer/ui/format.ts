/** Number, money and time formats shared by every view, so one amount reads the same wherever it is shown. */

/** 1234567 → "1,234,567". Not toLocaleString: Intl formatting costs microseconds a call, and the views call it
 * for every block of a 600-block request. */
export function grouped(n: number): string {
  const digits = String(Math.round(Math.abs(n)))
  let out = ''
  for (let i = 0; i < digits.length; i++) out += (i > 0 && (digits.length - i) % 3 === 0 ? ',' : '') + digits[i]
  return n < 0 ? `-${out}` : out
}

export function tokens(n: number | null): string {
  if (n === null) return '—'
  if (n >= 10_000) return `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k`
  return grouped(n)
}

export { shownDifference, sideBySide, signedUsd, usd } from '../../src-preload/money'

export function ms(n: number | null): string {
  if (n === null) return '—'
  return n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`
}

const pad2 = (x: number): string => String(x).padStart(2, '0')

/** "19:44:27": local time on a 24-hour clock, as everywhere in the app. */
export function clock(at: number): string {
  const d = new Date(at)
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`
}

/** "2026-11-29 19:44": a local date and time, to the minute. */
export function dateTime(at: number): string {
  const d = new Date(at)
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${clock(at).slice(0, 5)}`
}

export function bytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(2)} MB`
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${n} B`
}

export function shortModel(model: string): string {
  return model.replace(/^claude-/, '')
}

/** "19 / 21 ms", "0.41 / 2.30 s": first byte and total with one unit. */
export function latencyPair(firstByteMs: number | null, totalMs: number | null): string {
  if (firstByteMs === null && totalMs === null) return '—'
  const big = Math.max(firstByteMs ?? 0, totalMs ?? 0) >= 1000
  const f = (n: number | null) => (n === null ? '—' : big ? (n / 1000).toFixed(n >= 10_000 ? 1 : 2) : String(Math.round(n)))
  return `${f(firstByteMs)} / ${f(totalMs)} ${big ? 's' : 'ms'}`
}

/**
 * Text quoted on one line (a compaction's focus, a message taken back): its spaces and line breaks collapsed, and cut
 * with "…" at `max` characters, counted and cut by code point, so an emoji or another character outside the BMP is
 * never split in two.
 */
export function oneLine(text: string, max = 80): string {
  const line = Array.from(text.replace(/\s+/g, ' ').trim())
  return line.length <= max ? line.join('') : `${line.slice(0, max - 1).join('').trimEnd()}…`
}
