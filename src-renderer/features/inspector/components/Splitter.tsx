import { useRef, type KeyboardEvent, type PointerEvent } from 'react'

/**
 * A drag handle (the WAI-ARIA window splitter). `edge` says which side of the resized box it sits on: dragging away
 * from the box makes it bigger. `min` and `max` are the least and greatest size the caller draws the box at now:
 * they are told to assistive technology, and Home and End go to them. Keyboard: arrows resize by `step` px (16 unless
 * told). What `onResize` is given is not clamped here: the caller keeps its own rules (a drag past the greatest size
 * may be remembered for a wider window).
 */
export function Splitter({
  edge,
  size,
  min,
  max,
  onResize,
  label,
  step = 16,
  className,
}: {
  edge: 'left' | 'right' | 'top' | 'bottom'
  size: number
  min: number
  max: number
  onResize(size: number): void
  label: string
  step?: number
  /** Replaces the inspector's look (`insp-splitter`), for a handle drawn elsewhere. */
  className?: string
}) {
  const start = useRef<{ pos: number; size: number } | null>(null)
  const horizontal = edge === 'left' || edge === 'right'
  // Which way along the pointer's axis makes the box bigger: away from it.
  const sign = edge === 'bottom' || edge === 'right' ? 1 : -1
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId)
    start.current = { pos: horizontal ? e.clientX : e.clientY, size }
  }
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!start.current) return
    const delta = (horizontal ? e.clientX : e.clientY) - start.current.pos
    onResize(start.current.size + sign * delta)
  }
  const onPointerUp = () => (start.current = null)
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const toward = horizontal ? (e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0) : e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0
    const to = e.key === 'Home' ? min : e.key === 'End' ? max : toward !== 0 ? size + toward * sign * step : null
    if (to === null) return
    e.preventDefault()
    onResize(to)
  }
  return (
    <div
      className={className ?? `insp-splitter ${horizontal ? 'vertical' : 'horizontal'}`}
      role="separator"
      aria-label={label}
      aria-orientation={horizontal ? 'vertical' : 'horizontal'}
      aria-valuenow={Math.round(size)}
      aria-valuemin={Math.round(min)}
      aria-valuemax={Math.round(max)}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onKeyDown={onKeyDown}
    />
  )
}
