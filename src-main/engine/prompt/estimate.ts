/**
 * Token estimates for the plan. The engine has no tokenizer (the exact count comes from the model service's
 * count_tokens, docs/reference/anthropic-api.md §7), so every figure here is `ceil(characters / 4)`, the usual
 * rule of thumb for English text and code with Claude's tokenizers. It is shown as an estimate, never billed.
 */

/** Estimated tokens for a piece of text: ceil(UTF-16 code units / 4). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/** Same rule, from a character count already known. */
export function estimateTokensFromChars(chars: number): number {
  return Math.ceil(chars / 4)
}

/**
 * Images are billed by pixel area (about width × height / 750 tokens, capped near 1,600 for a 1.15-megapixel
 * image); the engine does not decode images, so each one counts as the cap.
 */
export const IMAGE_TOKENS_ESTIMATE = 1600
