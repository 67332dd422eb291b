/**
 * What the user typed, from one text block of a Claude Code user line: the block itself, or for a slash command the
 * command and its arguments (`/handgemacht:create-beads websearch to learn …`, from Claude Code's
 * `<command-name>`/`<command-args>` wrapper). Null for what the user did not type as a request: other wrappers
 * (caveats, reminders, command output), a command without arguments (`/clear`), an interruption marker.
 * The sessions list and an imported session's title both name a session by its first typed prompt.
 */
export function typedPrompt(text: string): string | null {
  const trimmed = text.trim()
  if (trimmed === '' || /^\[Request interrupted by user[^\]]*\]$/.test(trimmed)) return null
  if (!trimmed.startsWith('<')) return trimmed
  const name = /<command-name>([^<]*)<\/command-name>/.exec(trimmed)?.[1]?.trim() ?? ''
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(trimmed)?.[1]?.trim() ?? ''
  return name !== '' && args !== '' ? `${name} ${args}` : null
}
