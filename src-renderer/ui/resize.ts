/**
 * Following an element's size: the window, the sidebar or a splitter can change it without React knowing. One hook
 * for the views that lay themselves out by the room they have (the workspace's split, the inspector's pane, the Files
 * view's list).
 */
import { useLayoutEffect, type RefObject } from 'react'

/**
 * Calls `measure` with the element `ref` holds (or, with `parent`, the element around it) before the first frame is
 * drawn, so a narrow window never draws the wide layout first, and again whenever that element's size changes.
 * `measure` is the one given when the element is first observed: it should read what it needs from the element and
 * hand it to state (a setter, a store's action), not close over values of one render.
 */
export function useResized<E extends HTMLElement>(ref: RefObject<E | null>, measure: (element: HTMLElement) => void, options: { parent?: boolean } = {}): void {
  const { parent = false } = options
  useLayoutEffect(() => {
    const element = parent ? ref.current?.parentElement : ref.current
    if (!element) return
    const update = () => measure(element)
    update()
    const observer = new ResizeObserver(update)
    observer.observe(element)
    return () => observer.disconnect()
    // Observed once per element: `measure` is a fresh function at every render, and what it calls is not.
  }, [ref, parent])
}
