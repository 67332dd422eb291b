/**
 * Puts `text` on the clipboard and answers what to tell the user: `done` when it went, or why it did not (the
 * browser can refuse it, in a window without the focus or without the permission).
 */
export async function copyText(text: string, done: string): Promise<string> {
  try {
    await navigator.clipboard.writeText(text)
    return done
  } catch (err) {
    return `Could not copy: ${err instanceof Error ? err.message : String(err)}`
  }
}
