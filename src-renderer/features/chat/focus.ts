import { useLayoutEffect, type RefObject } from 'react'
import { useInspectorStore } from '../../state/inspector'
import { fieldTarget, focusWhenShown } from '../../ui/focus-when-shown'

/**
 * Puts the keyboard in the message box of the chat just chosen (after a new session, a continued one, Mod+L), in the
 * same task: a key typed right after the command lands in the box (ui/focus-when-shown.ts). Where the inspector shows
 * alone, the chat comes back first.
 */
export function focusMessageBox(): void {
  // In a window where only one pane fits, the chat takes the inspector's place (decision 0048).
  useInspectorStore.getState().chatShown()
  focusWhenShown(fieldTarget('textarea[aria-label="Message"]'))
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
