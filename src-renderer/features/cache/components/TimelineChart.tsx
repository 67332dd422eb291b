/**
 * The cache timeline drawn as plain SVG in React (no charting library: nothing to evaluate at run time, so it runs
 * under the CSP's `script-src 'self'` without `unsafe-eval`, and it follows the theme through CSS variables).
 *
 * One stacked bar per pass — cache read, written, paid in full, output — with the pass's cost as a line on the right
 * axis; misses and partial hits flagged above their bar with their cause; the events that explain the cache drawn as
 * dashed lines between passes.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import { isFlaggedMiss, summaryText, type Bar, type Marker, type MarkerKind, type Timeline } from '../model/timeline'
import { grouped, usd } from '../../../ui/format'
import { axisTicks, tokenTick, usdTick } from '../model/axis'
import { COST_DOT_HIT_PX, MISS_MARK_PX, missMarkApex } from '../model/miss-mark'
import { tooltipWithNames } from '../../inspector/components/ModelName'

const HEIGHT = 280
const PAD = { left: 56, right: 56, top: 34, bottom: 26 }

export const MARKER_GLYPH: Readonly<Record<MarkerKind, string>> = { compaction: 'C', context_edit: 'E', file_edit: 'F', model_switch: 'M', idle: 'Z', kept_warm: 'W' }
export const MARKER_WORDS: Readonly<Record<MarkerKind, string>> = {
  compaction: 'compaction',
  context_edit: 'context edit',
  file_edit: 'file edit applied now',
  model_switch: 'model switch',
  idle: 'idle longer than the TTL',
  kept_warm: 'pause kept warm',
}

function useWidth(given?: RefObject<HTMLDivElement | null>): [RefObject<HTMLDivElement | null>, number] {
  const own = useRef<HTMLDivElement>(null)
  const ref = given ?? own
  const [width, setWidth] = useState(800)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const observer = new ResizeObserver(([entry]) => entry && setWidth(Math.max(320, Math.floor(entry.contentRect.width))))
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return [ref, width]
}

/** `chartRef`: the chart's focusable element, for a view that sends the keyboard to it (a pass chosen from a list). */
export function TimelineChart({ timeline, focusedPassId, onFocus, chartRef }: { timeline: Timeline; focusedPassId: string | null; onFocus(passId: string): void; chartRef?: RefObject<HTMLDivElement | null> }) {
  const [ref, width] = useWidth(chartRef)
  const { bars, markers } = timeline
  const tokenTicks = axisTicks(timeline.maxTokens)
  const usdTicks = timeline.maxUsd > 0 ? axisTicks(timeline.maxUsd) : null
  const maxTokens = tokenTicks.at(-1)!
  const maxUsd = usdTicks?.at(-1) ?? 0
  const plotW = width - PAD.left - PAD.right
  const plotH = HEIGHT - PAD.top - PAD.bottom
  const slot = plotW / Math.max(1, bars.length)
  const barW = Math.max(1, Math.min(28, slot * 0.68))
  const y = (tokens: number) => PAD.top + plotH - (tokens / maxTokens) * plotH
  const yUsd = (usd: number) => PAD.top + plotH - (maxUsd > 0 ? (usd / maxUsd) * plotH : 0)
  const cx = (i: number) => PAD.left + slot * i + slot / 2
  const boundary = (i: number) => PAD.left + slot * i
  const costPoints = bars.map((b, i) => (b.costUsd === null ? null : `${cx(i).toFixed(1)},${yUsd(b.costUsd).toFixed(1)}`)).filter((p): p is string => p !== null)

  // The keyboard's way to what a click on a bar does: Left and Right choose the pass before or after, Home and End
  // the first and last; the chosen pass is read out from the line under the chart.
  const focusedIndex = bars.findIndex((b) => b.passId === focusedPassId)
  const focusedBar = focusedIndex >= 0 ? bars[focusedIndex]! : null
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (bars.length === 0) return
    const from = focusedIndex < 0 ? (e.key === 'ArrowLeft' ? bars.length : -1) : focusedIndex
    const to = e.key === 'ArrowRight' ? from + 1 : e.key === 'ArrowLeft' ? from - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? bars.length - 1 : null
    if (to === null) return
    e.preventDefault()
    onFocus(bars[Math.min(bars.length - 1, Math.max(0, to))]!.passId)
  }

  return (
    <div
      ref={ref}
      className="cache-chart"
      tabIndex={0}
      role="group"
      aria-label={`Cache timeline of ${bars.length} passes: Left and Right choose a pass`}
      aria-keyshortcuts="ArrowLeft ArrowRight Home End"
      onKeyDown={onKeyDown}
    >
      <svg width={width} height={HEIGHT} role="img" aria-label={`Cache timeline of ${bars.length} passes`} data-testid="cache-timeline">
        {tokenTicks.map((t, i) => (
          <g key={i}>
            <line x1={PAD.left} x2={width - PAD.right} y1={y(t)} y2={y(t)} className="cache-grid" />
            <text x={PAD.left - 6} y={y(t) + 4} className="cache-axis" textAnchor="end">
              {tokenTick(t)}
            </text>
            {usdTicks && (
              <text x={width - PAD.right + 6} y={yUsd(usdTicks[i]!) + 4} className="cache-axis" data-testid="cache-usd-tick">
                {usdTick(usdTicks[i]!)}
              </text>
            )}
          </g>
        ))}
        <text x={PAD.left - 6} y={PAD.top - 20} className="cache-axis" textAnchor="end">
          tokens
        </text>
        <text x={width - PAD.right + 6} y={PAD.top - 20} className="cache-axis">
          $ / pass
        </text>
        {bars.map((b, i) => (
          <BarShape key={b.passId} bar={b} x={cx(i) - barW / 2} width={barW} y={y} focused={b.passId === focusedPassId} onFocus={() => onFocus(b.passId)} />
        ))}
        {costPoints.length > 1 && <polyline points={costPoints.join(' ')} className="cache-cost-line" />}
        {bars.map((b, i) => {
          if (!isFlaggedMiss(b)) return null
          // Out of the way of the pass's $ dot, which the cost axis can put just where the triangle would sit.
          const apex = missMarkApex(y(b.read + b.write + b.uncached + b.output), b.costUsd === null ? null : yUsd(b.costUsd), 2)
          return (
            <g key={`miss-${b.passId}`} data-testid="cache-miss" data-cause={b.cause ?? ''} data-pass={b.passId} className={`cache-miss ${b.outcome}${b.missTokens > 0 ? '' : ' unavoidable'}`} onClick={() => onFocus(b.passId)}>
              <title>{tooltipWithNames(`pass ${b.seq}: ${b.summary !== null ? summaryText(b.summary) : b.outcome}`)}</title>
              <path d={`M ${cx(i) - 5} ${apex - MISS_MARK_PX} L ${cx(i) + 5} ${apex - MISS_MARK_PX} L ${cx(i)} ${apex} Z`} />
            </g>
          )
        })}
        {/* Each $ dot chooses its pass, as its bar does, and says its cost on hover. */}
        {bars.map((b, i) =>
          b.costUsd === null ? null : (
            <g key={`cost-${b.passId}`} className="cache-cost-dot" data-testid="cache-cost-dot" data-pass={b.passId} onClick={() => onFocus(b.passId)}>
              <title>{`pass ${b.seq}: ${usd(b.costUsd)}`}</title>
              <circle cx={cx(i)} cy={yUsd(b.costUsd)} r={COST_DOT_HIT_PX} className="cache-cost-hit" />
              <circle cx={cx(i)} cy={yUsd(b.costUsd)} r={2.5} />
            </g>
          ),
        )}
        {markers.map((m, i) => {
          // Markers before the same pass sit side by side above their line, so each one can be seen (and hovered).
          const together = markers.filter((o) => o.beforeIndex === m.beforeIndex)
          const slot = together.indexOf(m)
          return <MarkerLine key={`${m.kind}-${m.at}-${i}`} marker={m} x={boundary(m.beforeIndex)} offset={(slot - (together.length - 1) / 2) * 18} top={PAD.top - 12} bottom={PAD.top + plotH} />
        })}
        {bars.length <= 40 &&
          bars.map((b, i) => (
            <text key={`l-${b.passId}`} x={cx(i)} y={HEIGHT - 8} className="cache-axis" textAnchor="middle">
              {b.seq}
            </text>
          ))}
      </svg>
      <p className="visually-hidden" aria-live="polite" data-testid="cache-timeline-chosen">
        {focusedBar ? tooltipWithNames(barWords(focusedBar)) : ''}
      </p>
    </div>
  )
}

/** A pass's bar in words: its tooltip, and what the keyboard user hears when choosing it. */
function barWords(bar: Bar): string {
  return `pass ${bar.seq} (${bar.kind}) · read ${grouped(bar.read)} · written ${grouped(bar.write)} · paid in full ${grouped(bar.uncached)} · output ${grouped(bar.output)}${bar.costUsd !== null ? ` · ${usd(bar.costUsd)}` : ''}${bar.summary ? `\n${summaryText(bar.summary)}` : ''}`
}

/** The height of the outline a pass with nothing billed gets. */
const EMPTY_BAR_PX = 10

function BarShape({ bar, x, width, y, focused, onFocus }: { bar: Bar; x: number; width: number; y: (t: number) => number; focused: boolean; onFocus(): void }) {
  const parts: Array<[string, number]> = [
    ['read', bar.read],
    ['write', bar.write],
    ['uncached', bar.uncached],
    ['output', bar.output],
  ]
  let base = 0
  const empty = parts.every(([, value]) => value <= 0)
  return (
    <g className={`cache-bar${bar.kind !== 'main' ? ' side' : ''}${focused ? ' focused' : ''}`} onClick={onFocus} data-pass={bar.passId}>
      <title>{tooltipWithNames(barWords(bar))}</title>
      {/* A pass with nothing billed (no response) still has a place to point at and click. */}
      {empty && <rect className="cache-empty" data-testid="cache-empty-bar" x={x} y={y(0) - EMPTY_BAR_PX} width={width} height={EMPTY_BAR_PX} />}
      {parts.map(([name, value]) => {
        if (value <= 0) return null
        const top = y(base + value)
        const rect = <rect key={name} className={`cache-${name}`} x={x} y={top} width={width} height={Math.max(0.5, y(base) - top)} />
        base += value
        return rect
      })}
    </g>
  )
}

function MarkerLine({ marker, x, offset, top, bottom }: { marker: Marker; x: number; offset: number; top: number; bottom: number }) {
  return (
    <g className={`cache-marker ${marker.kind}`} data-testid="cache-marker" data-kind={marker.kind}>
      <title>{tooltipWithNames(`${MARKER_WORDS[marker.kind]}: ${marker.label}`)}</title>
      <line x1={x} x2={x} y1={top + 10} y2={bottom} />
      <circle cx={x + offset} cy={top} r={8} />
      <text x={x + offset} y={top + 4} textAnchor="middle">
        {MARKER_GLYPH[marker.kind]}
      </text>
    </g>
  )
}
