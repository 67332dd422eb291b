/**
 * Keyboard and focus for a modal dialog (the Claude Code sessions panel): while it is open it has the keyboard.
 *
 * - It takes the focus when it opens, and gives it back to what had it (the button that opened it) when it closes.
 * - Tab and Shift+Tab go round its own controls, never to the page behind it; focus that lands behind it (a click on
 *   the page, an editor focusing itself) is brought back.
 * - Esc closes it, and nothing else: the key is handled in the capture phase at the document, before it reaches the
 *   page's own handlers (the chat's Esc stops a running turn), and marked handled (`defaultPrevented`) and stopped.
 *
 * The command palette can open over the dialog and keeps the keyboard itself: while it is open this steps aside.
 */
import { useEffect, type RefObject } from 'react'
import { useSettingsStore } from '../../state/settings'

const FOCUSABLE = 'button, [href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])'

/** The controls Tab can reach inside `root`, in order. */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0)
}

const paletteOpen = () => useSettingsStore.getState().paletteOpen

export function useModalFocus(dialog: RefObject<HTMLElement | null>, open: boolean, close: () => void): void {
  useEffect(() => {
    if (!open) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    dialog.current?.focus()

    const onKeyDown = (e: KeyboardEvent) => {
      const root = dialog.current
      if (!root || paletteOpen()) return
      if (e.key === 'Escape') {
        e.preventDefault()
        e.stopPropagation()
        close()
        return
      }
      if (e.key !== 'Tab') return
      const items = focusables(root)
      const active = document.activeElement
      const first = items[0] ?? root
      const last = items[items.length - 1] ?? root
      const inside = active instanceof Node && root.contains(active)
      if (!inside || (e.shiftKey && (active === first || active === root)) || (!e.shiftKey && active === last)) {
        e.preventDefault()
        ;(e.shiftKey ? last : first).focus()
      }
    }
    const onFocusIn = (e: FocusEvent) => {
      const root = dialog.current
      if (!root || paletteOpen() || !(e.target instanceof Node) || root.contains(e.target)) return
      if (e.target instanceof Element && e.target.closest('.palette')) return
      root.focus()
    }
    document.addEventListener('keydown', onKeyDown, { capture: true })
    document.addEventListener('focusin', onFocusIn)
    return () => {
      document.removeEventListener('keydown', onKeyDown, { capture: true })
      document.removeEventListener('focusin', onFocusIn)
      // Back to the opener, unless it is gone or the focus already moved somewhere on purpose.
      const active = document.activeElement
      const lost = active === null || active === document.body || (dialog.current?.contains(active) ?? false)
      if (opener?.isConnected && lost) opener.focus()
    }
  }, [dialog, open, close])
}
