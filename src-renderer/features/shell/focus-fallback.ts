/**
 * When the element that had the keyboard goes away (a view switched with Alt+1–5, the inspector hidden with the
 * button that was focused, an approval card answered with Esc), the
 * browser leaves focus on <body>, and a keyboard user starts again from the top of the page. This puts it on the
 * heading of the view shown instead, so Tab goes on from the view.
 *
 * Only for an element removed from the page: focus leaving to nowhere because the user clicked empty space or left
 * the window (the element still there) stays where the user put it.
 */
export function installFocusFallback(): void {
  // The region the keyboard was last in (see FOCUS_REGION), read when focus arrives: once an element is removed, what
  // it was inside is gone from it.
  let region: HTMLElement | null = null
  document.addEventListener('focusin', (event) => {
    region = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>(`[${FOCUS_REGION}]`) : null
  })
  document.addEventListener('focusout', (event) => {
    if (event.relatedTarget !== null) return
    const lost = event.target
    if (!(lost instanceof HTMLElement)) return
    const within = region
    // After the update that removed it, and after anything that moves focus on purpose in the same turn.
    requestAnimationFrame(() => {
      const active = document.activeElement
      if (active !== null && active !== document.body) return
      if (lost.isConnected) return
      // The palette gives the keyboard back itself, to where it was or to what its command opened (Palette.tsx).
      if (lost.closest('.palette') !== null) return
      if (within !== null && focusRegionLanding(within)) return
      focusViewHeading()
    })
  })
}

/**
 * Marks a region of a view (the inspector) that keeps the keyboard when a control inside it goes (a breakpoint chip
 * of a pass no longer shown): the attribute's value is the selector of where it lands instead, tried in order.
 */
export const FOCUS_REGION = 'data-focus-region'

function focusRegionLanding(region: HTMLElement): boolean {
  if (!region.isConnected) return false
  const selectors = (region.getAttribute(FOCUS_REGION) ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')
  for (const selector of selectors) {
    const landing = region.querySelector<HTMLElement>(selector)
    if (landing === null) continue
    landing.focus({ preventScroll: true })
    if (document.activeElement === landing) return true
  }
  return false
}

/** Puts the keyboard on the heading of the view shown. */
export function focusViewHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1')
  if (heading === null) return
  // Focusable from script only: it is a landing place, not a Tab stop.
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
  heading.focus({ preventScroll: true })
}
