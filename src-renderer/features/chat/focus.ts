import { useLayoutEffect, type RefObject } from 'react'

/** Puts the keyboard in the message box once the chat has rendered (after a new session, a continued one, Mod+L). */
export function focusMessageBox(): void {
  // Two frames: the first lets React commit the chat that was just chosen, the second finds its box on the page.
  requestAnimationFrame(() => requestAnimationFrame(() => document.querySelector<HTMLElement>('textarea[aria-label="Message"]')?.focus()))
}

/** The message box when it can take the keyboard now: on the page, and not disabled (a read-only session's is). */
export function enabledMessageBox(): HTMLTextAreaElement | null {
  const box = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')
  return box !== null && !box.disabled ? box : null
}

/**
 * For a control that goes away once it has done its work (an approval card answered, or gone with the turn Esc
 * stopped): when it leaves the page holding the keyboard, the keyboard goes to the message box, so the user types
 * on, instead of to the view's heading (features/shell/focus-fallback.ts) and a Ctrl+L to come back. Done as it
 * leaves, while it still holds the focus: the focus moves from it to the box, never to the page in between.
 */
export function useMessageBoxAfterRemoval(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current
    return () => {
      if (element?.contains(document.activeElement)) enabledMessageBox()?.focus()
    }
  }, [ref])
}
