/**
 * The keyboard of a tab list, as screen-reader users expect it (WAI-ARIA tabs, automatic activation): the selected
 * tab is the list's one Tab stop (`tabIndex`), Left and Right move to the tab before or after (wrapping), Home and
 * End to the first and last, and the tab moved to is chosen. Disabled tabs are passed over.
 */
import type { KeyboardEvent } from 'react'

export function onTablistKeyDown(e: KeyboardEvent<HTMLElement>): void {
  const tabs = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]:not(:disabled)')]
  const at = tabs.indexOf(document.activeElement as HTMLElement)
  if (at < 0 || tabs.length === 0) return
  const n = tabs.length
  const to = e.key === 'ArrowRight' ? (at + 1) % n : e.key === 'ArrowLeft' ? (at - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : null
  if (to === null) return
  e.preventDefault()
  tabs[to]!.focus()
  tabs[to]!.click()
}

/** The selected tab is the list's Tab stop; the others are reached with the arrows. */
export const tabStop = (selected: boolean): 0 | -1 => (selected ? 0 : -1)
