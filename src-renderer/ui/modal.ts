import { useEffect, useState, type RefObject } from 'react'

/**
 * A modal dialog's keyboard: it keeps the focus while open (a Tab or a click that would leave it brings the focus
 * back to `home`), Esc dismisses it wherever the focus is (handled, so the window's Esc does not also stop a turn),
 * and when it closes the focus goes back to what had it when it opened, if that is still on the page, else to
 * `fallback()`.
 */
export function useModalKeyboard(dialog: RefObject<HTMLElement | null>, home: RefObject<HTMLElement | null>, dismiss: () => void, fallback: () => HTMLElement | null = () => null): void {
  const [returnTo] = useState(() => document.activeElement)
  const [dismissNow] = useState(() => ({ current: dismiss }))
  dismissNow.current = dismiss
  useEffect(() => {
    home.current?.focus()
    const keep = (e: FocusEvent) => {
      if (e.target instanceof Node && !dialog.current?.contains(e.target)) home.current?.focus()
    }
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape') return
      e.preventDefault()
      dismissNow.current()
    }
    document.addEventListener('focusin', keep)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('focusin', keep)
      document.removeEventListener('keydown', onKey)
      if (returnTo instanceof HTMLElement && returnTo.isConnected) returnTo.focus()
      else fallback()?.focus()
    }
    // Once, for the dialog's life: the refs and the first focus are fixed when it opens.
  }, [])
}
