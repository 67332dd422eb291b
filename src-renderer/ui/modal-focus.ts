/**
 * Keyboard and focus for a modal dialog (the Claude Code sessions panel, the delete confirmation, the export and
 * import dialogs): while it is open it has the keyboard.
 *
 * - It takes the focus when it opens (the dialog itself, or `initial`: a Cancel, a field), and gives it back to what
 *   had it when it closes; if that is gone (a deleted session's row, a dialog it replaced), to `fallback()`.
 * - Tab and Shift+Tab go round its own controls, never to the page behind it; focus that lands behind it (a click on
 *   the page, an editor focusing itself) is brought back.
 * - Esc closes it, and nothing else: the key is handled in the capture phase at the document, before it reaches the
 *   page's own handlers (the chat's Esc stops a running turn), and marked handled (`defaultPrevented`) and stopped.
 *
 * The command palette can open over the dialog and keeps the keyboard itself: while it is open this steps aside.
 * `close` and the options are read when used, so a new closure at each render does not open the dialog again.
 */
import { useEffect, useRef, type RefObject } from 'react'
import { useSettingsStore } from '../state/settings'

const FOCUSABLE = 'button, [href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])'

/** The controls Tab can reach inside `root`, in order. */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0)
}

const paletteOpen = () => useSettingsStore.getState().paletteOpen

export interface ModalFocusOptions {
  /** What takes the focus when the dialog opens, and when focus strays behind it; the dialog itself without one. */
  readonly initial?: RefObject<HTMLElement | null>
  /** Where the focus goes when the dialog closes and what had it before is gone. */
  readonly fallback?: () => HTMLElement | null
}

export function useModalFocus(dialog: RefObject<HTMLElement | null>, open: boolean, close: () => void, options: ModalFocusOptions = {}): void {
  const latest = useRef({ close, options })
  latest.current = { close, options }
  // What had the keyboard is read as the dialog renders open, not after: by then a palette that opened it has closed
  // and the focus has moved on, and "back to the opener" would be back to wherever that left it.
  const opened = useRef<{ open: boolean; opener: Element | null }>({ open: false, opener: null })
  if (open !== opened.current.open) opened.current = { open, opener: open ? document.activeElement : null }
  useEffect(() => {
    if (!open) return
    const at = opened.current.opener
    const opener = at instanceof HTMLElement ? at : null
    const home = () => latest.current.options.initial?.current ?? dialog.current
    home()?.focus()

    const onKeyDown = (e: KeyboardEvent) => {
      const root = dialog.current
      if (!root || paletteOpen()) return
      if (e.key === 'Escape') {
        e.preventDefault()
        e.stopPropagation()
        latest.current.close()
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
      home()?.focus()
    }
    document.addEventListener('keydown', onKeyDown, { capture: true })
    document.addEventListener('focusin', onFocusIn)
    return () => {
      document.removeEventListener('keydown', onKeyDown, { capture: true })
      document.removeEventListener('focusin', onFocusIn)
      // Back to the opener, unless it is gone or the focus already moved somewhere on purpose.
      const active = document.activeElement
      const lost = active === null || active === document.body || (dialog.current?.contains(active) ?? false) || !active.isConnected
      if (!lost) return
      if (opener?.isConnected) opener.focus()
      else latest.current.options.fallback?.()?.focus()
    }
  }, [dialog, open])
}
