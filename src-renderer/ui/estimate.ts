/**
 * The renderer's token estimate where the main process sent no count: ceil(characters / 4), the same rule as the
 * engine's (src-main/engine/prompt/estimate.ts), which the renderer may not import. Shown as an estimate, never billed.
 */
export const CHARS_PER_TOKEN = 4

export function estimateTokensFromChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN)
}
