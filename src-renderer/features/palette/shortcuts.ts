/**
 * Keyboard shortcuts, installed once for the whole window. "Mod" is Cmd on macOS and Ctrl elsewhere.
 *
 *   Mod+K           the command palette            Alt+1 … Alt+5   Chat, Compaction, Cache, Files, Settings
 *   Mod+I           show / hide the inspector      Alt+↓ / Alt+↑   next / previous pass
 *   Mod+Shift+K     compact now (with a focus)     Mod+L           write a message
 *   Esc             stop the turn or cancel the compaction in flight, when nothing closer takes it (below)
 *   Enter           send (in the message box; Shift+Enter for a new line)   Mod+S  save (in the Files view)
 */
import { useInspectorStore } from '../../state/inspector'
import { useSessionsStore } from '../../state/sessions'
import { MAIN_VIEWS, useSettingsStore } from '../../state/settings'
import { focusMessageBox } from '../chat/focus'
import { toggleInspector } from '../inspector/reveal'
import { isMac, openCompactNow, showView, stepPass, stopRunning } from './commands'

function inMonaco(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('.monaco-editor') !== null
}

function modalDialogOpen(): boolean {
  return document.querySelector('[aria-modal="true"]') !== null
}

function inEditor(target: EventTarget | null): boolean {
  const el = target instanceof HTMLElement ? target : null
  return !!el && (el.closest('.monaco-editor') !== null || el.tagName === 'TEXTAREA' || el.tagName === 'INPUT' || el.tagName === 'SELECT')
}

/**
 * The message box, where the user usually is, steps through passes with Alt+↑/↓ too: a textarea has no use for the
 * keys, except on macOS, where Option+↑/↓ moves the caret to a paragraph's start or end.
 */
function inMessageBox(target: EventTarget | null): boolean {
  return !isMac && target instanceof HTMLTextAreaElement && target.getAttribute('aria-label') === 'Message'
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
      // The rest act on the window behind: while a modal dialog is open (the palette, the Claude Code sessions panel,
      // a confirmation) the keyboard is the dialog's.
      if (modalDialogOpen()) return false
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
        toggleInspector()
        return true
      }
      // From an editor too: the app's way to the message box outranks Monaco's Mod+L (select the line).
      if (mod && !e.shiftKey && e.key.toLowerCase() === 'l' && sessionId) {
        showView('chat')
        focusMessageBox()
        return true
      }
      if (e.altKey && !mod && (e.key === 'ArrowDown' || e.key === 'ArrowUp') && (!inEditor(e.target) || inMessageBox(e.target))) {
        stepPass(e.key === 'ArrowDown' ? 1 : -1)
        return true
      }
      return false
    })()
    if (handled) {
      e.preventDefault()
      e.stopPropagation()
    }
  }, { capture: true })

  // Esc closes the innermost thing first: a field or form that handles it (the deny reason, a session's new name)
  // calls preventDefault, and while a modal dialog is open (the palette, the Claude Code sessions panel, a delete
  // confirmation) Esc is the dialog's, to close it. Only when nothing took it does Esc stop what runs in the shown
  // session, whatever the view: a turn, or a compaction in flight. In the bubble phase, so the inner handlers run
  // first; the modal check covers dialogs that listen on the window themselves, since this listener, installed
  // first, runs before theirs.
  window.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented || modalDialogOpen()) return
    const sessionId = useSessionsStore.getState().selectedId
    if (sessionId && stopRunning(sessionId)) e.preventDefault()
  })

  // A file label clicked in the inspector opens the Files view, which opens the file (FilesView consumes it).
  useInspectorStore.subscribe((s, previous) => {
    if (s.fileRequest && s.fileRequest !== previous.fileRequest) useSettingsStore.getState().viewChosen('files')
  })
}
