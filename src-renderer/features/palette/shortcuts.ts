/**
 * Keyboard shortcuts, installed once for the whole window. "Mod" is Cmd on macOS and Ctrl elsewhere.
 *
 *   Mod+K           the command palette            Alt+1 … Alt+5   Chat, Compaction, Cache, Files, Settings
 *   Mod+I           show / hide the inspector      Alt+↓ / Alt+↑   next / previous pass
 *   Mod+Shift+K     compact now (with a focus)     Mod+L           write a message
 *   Esc             stop the turn or cancel the compaction in flight
 *   Enter           send (in the message box; Shift+Enter for a new line)   Mod+S  save (in the Files view)
 */
import { useInspectorStore } from '../../state/inspector'
import { useSessionsStore } from '../../state/sessions'
import { MAIN_VIEWS, useSettingsStore } from '../../state/settings'
import { isMac, openCompactNow, showView, stepPass, stopRunning } from './commands'

function inMonaco(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('.monaco-editor') !== null
}

function inEditor(target: EventTarget | null): boolean {
  const el = target instanceof HTMLElement ? target : null
  return !!el && (el.closest('.monaco-editor') !== null || el.tagName === 'TEXTAREA' || el.tagName === 'INPUT' || el.tagName === 'SELECT')
}

export function installShortcuts(): void {
  // In the capture phase, so Mod+K opens the palette even from inside Monaco (which would take it as a chord).
  window.addEventListener('keydown', (e) => {
    const mod = isMac ? e.metaKey : e.ctrlKey
    const settings = useSettingsStore.getState()
    const sessionId = useSessionsStore.getState().selectedId
    const handled = ((): boolean => {
      if (mod && !e.shiftKey && e.key.toLowerCase() === 'k') {
        if (settings.paletteOpen) settings.paletteClosed()
        else settings.paletteOpened()
        return true
      }
      if (mod && e.shiftKey && e.key.toLowerCase() === 'k') {
        if (!sessionId) return false
        openCompactNow()
        return true
      }
      if (e.altKey && !mod && /^Digit[1-5]$/.test(e.code)) {
        const view = MAIN_VIEWS[Number(e.code.slice(5)) - 1]
        if (!view) return false
        showView(view.id)
        return true
      }
      if (mod && !e.shiftKey && e.key.toLowerCase() === 'i' && !inMonaco(e.target)) {
        if (settings.view !== 'chat') showView('chat')
        useInspectorStore.getState().collapseToggled()
        return true
      }
      if (mod && !e.shiftKey && e.key.toLowerCase() === 'l' && sessionId && !inMonaco(e.target)) {
        showView('chat')
        requestAnimationFrame(() => document.querySelector<HTMLElement>('textarea[aria-label="Message"]')?.focus())
        return true
      }
      if (e.altKey && !mod && (e.key === 'ArrowDown' || e.key === 'ArrowUp') && !inEditor(e.target)) {
        stepPass(e.key === 'ArrowDown' ? 1 : -1)
        return true
      }
      // The chat's own Esc handler stops a turn while the chat is shown; this one covers the other views and a
      // compaction in flight.
      if (e.key === 'Escape' && sessionId && !settings.paletteOpen) {
        if (settings.view === 'chat') return false
        return stopRunning(sessionId)
      }
      return false
    })()
    if (handled) {
      e.preventDefault()
      e.stopPropagation()
    }
  }, { capture: true })

  // A file label clicked in the inspector opens the Files view, which opens the file (FilesView consumes it).
  useInspectorStore.subscribe((s, previous) => {
    if (s.fileRequest && s.fileRequest !== previous.fileRequest) useSettingsStore.getState().viewChosen('files')
  })
}
