/**
 * Bringing the inspector into sight from elsewhere (the Cache view's "Open in the inspector", Mod+I), with the
 * keyboard where the user will look next.
 */
import { selectInspectorHidden, selectWorkspaceShows, useInspectorStore } from '../../state/inspector'
import { useSettingsStore } from '../../state/settings'
import { focusMessageBox } from '../chat/focus'

/** Shows the inspector if it is collapsed, or, where one pane shows at a time (decision 0048), in the chat's place. */
export function showInspector(): void {
  const s = useInspectorStore.getState()
  if (selectInspectorHidden(s)) s.collapseToggled()
}

/** How many frames the passes list is waited for: the inspector is drawn in the frame after it is asked for. */
const LIST_WAIT_FRAMES = 30

/**
 * Puts the keyboard on the passes list once it is on the page, where a row is chosen with the arrow keys. Looked for
 * in the next frames: the inspector asked for is drawn after the click or key that asked. Left alone if the keyboard
 * went somewhere meanwhile.
 */
export function focusPassesList(): void {
  const from = document.activeElement
  let frames = 0
  const attempt = (): void => {
    const now = document.activeElement
    if (now !== from && now !== null && now !== document.body) return
    const list = document.querySelector<HTMLElement>('[data-testid="passes-list"]')
    if (list) list.focus()
    else if (++frames < LIST_WAIT_FRAMES) requestAnimationFrame(attempt)
  }
  requestAnimationFrame(attempt)
}

/**
 * Shows a pass of a session in the inspector, in the chat view, the keyboard on the passes list. The inspector is
 * told the session first: one that has not shown it since the page loaded would otherwise open it anew when it is
 * drawn, on its newest pass, not the one chosen.
 */
export function revealPass(sessionId: string, passId: string): void {
  const inspector = useInspectorStore.getState()
  inspector.sessionShown(sessionId)
  inspector.passSelected(passId)
  useSettingsStore.getState().viewChosen('chat')
  showInspector()
  focusPassesList()
}

/**
 * Mod+I: shows or hides the inspector. Where one pane shows at a time, the pane that was shown (and had the keyboard)
 * goes: the keyboard goes with the pane that takes its place, the passes list or the message box, as their bars do.
 */
export function toggleInspector(): void {
  if (useSettingsStore.getState().view !== 'chat') useSettingsStore.getState().viewChosen('chat')
  const inspector = useInspectorStore.getState()
  const before = selectWorkspaceShows(inspector)
  inspector.collapseToggled()
  const after = selectWorkspaceShows(useInspectorStore.getState())
  if (before === after) return
  if (after === 'inspector') focusPassesList()
  else if (before === 'inspector') focusMessageBox()
}
