/** Puts the keyboard in the message box once the chat has rendered (after a new session, a continued one, Mod+L). */
export function focusMessageBox(): void {
  // Two frames: the first lets React commit the chat that was just chosen, the second finds its box on the page.
  requestAnimationFrame(() => requestAnimationFrame(() => document.querySelector<HTMLElement>('textarea[aria-label="Message"]')?.focus()))
}
