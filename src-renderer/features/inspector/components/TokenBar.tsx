import { memo } from 'react'
import type { UsageLike } from '../model/breakpoints'
import { grouped, tokens } from '../../../ui/format'

/** Total tokens of a pass (input of every kind plus output), the scale of its bar. */
export function usageTotal(u: UsageLike | null): number {
  return u ? u.cache_read_input_tokens + u.cache_creation_input_tokens + u.input_tokens + u.output_tokens : 0
}

/**
 * A stacked bar: cache read, cache write, uncached input, output. Its length is the pass's total against the
 * largest pass in the list, so a growing context is visible at a glance.
 */
export const TokenBar = memo(function TokenBar({ usage, max }: { usage: UsageLike | null; max: number }) {
  if (!usage) return <span className="insp-bar insp-bar-empty" aria-label="no usage" />
  const total = usageTotal(usage)
  const parts = [
    ['read', usage.cache_read_input_tokens],
    ['write', usage.cache_creation_input_tokens],
    ['uncached', usage.input_tokens],
    ['output', usage.output_tokens],
  ] as const
  const title = `cache read ${grouped(usage.cache_read_input_tokens)} · cache write ${grouped(usage.cache_creation_input_tokens)} · uncached ${grouped(usage.input_tokens)} · output ${grouped(usage.output_tokens)}`
  return (
    <span className="insp-bar" title={title}>
      <span className="insp-bar-track">
        <span className="insp-bar-fill" style={{ width: `${Math.max(3, (100 * total) / Math.max(1, max))}%` }}>
          {parts.map(([kind, n]) => (n > 0 ? <span key={kind} className={`insp-bar-${kind}`} style={{ flexGrow: n }} /> : null))}
        </span>
      </span>
      <span className="insp-bar-total">{tokens(total)}</span>
    </span>
  )
})
