/** A session continued from an imported Claude Code conversation, as the chat marks where Loupe takes over. */

export interface ContinuedFrom {
  /** How many of the session's first entries came from the imported conversation (Claude Code's); null: unknown. */
  readonly inherited: number | null
  /** The model the imported conversation last used; null: unknown. */
  readonly fromModel: string | null
}

/**
 * What the divider of a continued conversation says: whose the conversation above was and on which model, and what
 * Loupe goes on with. The model is the one new sessions start on (chosen in Settings, or the default), not the
 * imported one; the system prompt and tools are Loupe's, so the first pass writes the whole conversation to the cache
 * again whatever the model.
 */
export function continuedText(fromModel: string | null, model: string): string {
  const above = `Continued in Loupe from here; the conversation above was Claude Code's${fromModel ? `, on ${fromModel}` : ''}.`
  if (!model) return above
  const switched = fromModel !== null && fromModel !== model
  return `${above} Loupe goes on with ${model}${switched ? ' (its model for new sessions)' : ''} and its own system prompt and tools, so its first pass writes the whole conversation to the cache.`
}
