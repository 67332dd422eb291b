/**
 * What the user reads stays where it is on screen when earlier entries are drawn above it ("Show earlier"). The
 * browser's scroll anchoring does not do it here: it keeps the view on the first element wholly in view, and that is
 * the button (which keeps its place, earlier entries going in below it) or a short part of the conversation that the
 * earlier entries fill from its top (parts.ts). So the first entry shown is held instead, by the scroll offset.
 */

/**
 * Puts `element` back where it is on screen now, once the page has changed around it: call the function returned. A
 * view moved in between (the user scrolled while earlier entries were read from the host) is left where it was put.
 */
export function holdOnScreen(element: Element): () => void {
  const scroller = scrollingBox(element)
  const top = element.getBoundingClientRect().top
  const scrollTop = scroller?.scrollTop
  return () => {
    if (!scroller || !element.isConnected || scroller.scrollTop !== scrollTop) return
    const moved = element.getBoundingClientRect().top - top
    if (moved !== 0) scroller.scrollTop += moved
  }
}

/** The nearest box around `element` that scrolls vertically. */
function scrollingBox(element: Element): HTMLElement | null {
  for (let el = element.parentElement; el; el = el.parentElement) if (/auto|scroll/.test(getComputedStyle(el).overflowY)) return el
  return null
}
