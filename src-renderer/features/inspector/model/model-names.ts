/**
 * A model's display name ("Sonnet 4.5") in place of its id ("claude-sonnet-4-5-20250929") where a cause or a note
 * names one: "model changed: Sonnet 4.5 → Opus 4.6". The names are the app's model table's labels ("Claude Sonnet
 * 4.5") without the "Claude" every one of them starts with, from the list the main process builds that table from
 * (src-preload/models.ts): known from the first paint, not once `settings.get` answers (decision 0055). An id the table
 * does not know (an older model in an imported transcript) stays as it is. The raw id stays available: the views put
 * it in the name's tooltip.
 */
import { findModelIn, MODEL_NAMES } from '../../../../src-preload/models'

/** "Sonnet 4.5" for `claude-sonnet-4-5` or `claude-sonnet-4-5-20250929`; null for an id the table does not know. */
export function modelName(id: string): string | null {
  const entry = findModelIn(id, MODEL_NAMES)
  if (!entry) return null
  return entry.label.replace(/^Claude\s+/, '') || entry.label
}

/** A model's name when the table knows it, else its id as it is. */
export function modelNameOr(id: string): string {
  return modelName(id) ?? id
}

/** A piece of a text: words as they are, or a model id the table knows with its display name. */
export type NamedPart = string | { readonly id: string; readonly name: string }

/** What looks like a model id: `claude-` and dash-separated words, not inside a longer word. */
const MODEL_ID = /(?<![\w-])claude(?:-[a-z0-9]+)+/g

/**
 * A text cut where it names a model the table knows: "model changed: claude-sonnet-4-5 → claude-opus-4-6 (the cache
 * is per model)" → ["model changed: ", {Sonnet 4.5}, " → ", {Opus 4.6}, " (the cache is per model)"]. Unknown ids
 * stay in the words.
 */
export function modelNameParts(text: string): NamedPart[] {
  const parts: NamedPart[] = []
  let last = 0
  for (const match of text.matchAll(MODEL_ID)) {
    // A possessive or a full stop ends the id ("claude-haiku-4-5's minimum", "… to claude-opus-4-6.").
    const id = match[0]
    const name = modelName(id)
    if (name === null) continue
    const at = match.index
    if (at > last) parts.push(text.slice(last, at))
    parts.push({ id, name })
    last = at + id.length
  }
  if (last < text.length) parts.push(text.slice(last))
  return parts
}

/**
 * The same text as one string, for a tooltip: each known id becomes its name, followed by the id in brackets when
 * `withIds` (a tooltip is where the raw id is read): "model changed: Sonnet 4.5 (claude-sonnet-4-5) → …".
 */
export function withModelNames(text: string, withIds = false): string {
  return modelNameParts(text)
    .map((p) => (typeof p === 'string' ? p : withIds ? `${p.name} (${p.id})` : p.name))
    .join('')
}
