/**
 * The app's models by id, with the name each is shown by, in the order the model choice lists them. The main
 * process's model table (src-main/node/model/models.ts) adds each one's figures and prices to this list; the renderer
 * reads the names from here, so a model is named from the first paint instead of by its id until `settings.get`
 * answers (docs/decisions/0055-a-model-is-named-from-the-first-paint.md). This module imports nothing, like money.ts,
 * so both sides use it.
 */

export const MODEL_NAMES = [
  { id: 'claude-opus-5-5', label: 'Claude Opus 5.5' },
  { id: 'claude-sonnet-5-5', label: 'Claude Sonnet 5.5' },
  { id: 'claude-haiku-5-5', label: 'Claude Haiku 5.5' },
  { id: 'claude-fable-5-2', label: 'Claude Fable 5.2' },
  { id: 'claude-mythos-5-2', label: 'Claude Mythos 5.2' },
  { id: 'claude-fable-5-1', label: 'Claude Fable 5.1' },
  { id: 'claude-mythos-5-1', label: 'Claude Mythos 5.1' },
  { id: 'claude-fable-5', label: 'Claude Fable 5' },
  { id: 'claude-mythos-5', label: 'Claude Mythos 5' },
  { id: 'claude-opus-5', label: 'Claude Opus 5' },
  { id: 'claude-sonnet-5', label: 'Claude Sonnet 5' },
  { id: 'claude-opus-4-8', label: 'Claude Opus 4.8' },
  { id: 'claude-opus-4-7', label: 'Claude Opus 4.7' },
  { id: 'claude-opus-4-6', label: 'Claude Opus 4.6' },
  { id: 'claude-sonnet-4-6', label: 'Claude Sonnet 4.6' },
  { id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5' },
  { id: 'claude-opus-4-5', label: 'Claude Opus 4.5' },
  { id: 'claude-sonnet-4-5', label: 'Claude Sonnet 4.5' },
] as const

/** An id of the app's model table. */
export type ModelId = (typeof MODEL_NAMES)[number]['id']

/** The entry for an id, also for a dated id (`claude-haiku-4-5-20251001` → `claude-haiku-4-5`); null when unknown. */
export function findModelIn<M extends { readonly id: string }>(id: string, models: ReadonlyArray<M>): M | null {
  return models.find((m) => m.id === id) ?? models.find((m) => id.startsWith(`${m.id}-`) && /^\d{8}$/.test(id.slice(m.id.length + 1))) ?? null
}
