import { useRef, type PointerEvent } from 'react'

/**
 * A drag handle. `edge` says which side of the resized box it sits on: dragging away from the box makes it
 * bigger. Keyboard: arrows resize by 16 px.
 */
export function Splitter({ edge, size, onResize, label }: { edge: 'left' | 'top' | 'bottom'; size: number; onResize(size: number): void; label: string }) {
  const start = useRef<{ pos: number; size: number } | null>(null)
  const horizontal = edge === 'left'
  const sign = edge === 'bottom' ? 1 : -1
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
  return (
    <div
      className={`insp-splitter ${horizontal ? 'vertical' : 'horizontal'}`}
      role="separator"
      aria-label={label}
      aria-orientation={horizontal ? 'vertical' : 'horizontal'}
      aria-valuenow={Math.round(size)}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onKeyDown={(e) => {
        const grow = horizontal ? (e.key === 'ArrowLeft' ? 16 : e.key === 'ArrowRight' ? -16 : 0) : e.key === 'ArrowDown' ? 16 * sign : e.key === 'ArrowUp' ? -16 * sign : 0
        if (grow !== 0) {
          e.preventDefault()
          onResize(size + grow)
        }
      }}
    />
  )
}
