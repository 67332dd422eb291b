/**
 * What the chat header's model choice lists for a session's model, and what the palette offers to switch to
 * (docs/decisions/0056-a-model-outside-the-list-is-still-a-choice.md). The session's model may not be an id of the
 * app's list (src-preload/models.ts) as it is spelled there:
 *
 * - a dated id of a listed model (`claude-sonnet-4-5-20250929`, from a dated id in Settings or `LOUPE_MODEL`) is that
 *   model: its entry in the list carries the id as the session spells it, so it shows chosen, and a switch "to" it
 *   is no switch. A switch between the two spellings of one model is never offered: the API may key its cache by the
 *   id as sent, so what it would cost cannot be said (the engine prices it as a model change, the simulator reads the
 *   same entries);
 * - a model the list does not have (one an older build's table had) is shown as the chosen entry, which cannot be
 *   chosen back, above the app's models, each of which a switch may go to.
 */
import { findModelIn, MODEL_NAMES } from '../../../src-preload/models'

export interface ModelOption {
  /** The id the option stands for: the session's own spelling for the session's model. */
  readonly value: string
  readonly label: string
  /** The session's model. */
  readonly current: boolean
  /** A model a switch may go to: every one of the app's list, not one the app does not know. */
  readonly choosable: boolean
}

/**
 * First strong isolate … pop directional isolate: an option's text holds no element, so a name read from the disk is
 * isolated with the characters `<bdi>` stands for, and a right-to-left id or an override in it stays inside them.
 */
const isolated = (text: string) => `\u2068${text}\u2069`

/** The options of the model choice for a session on `model`, in the list's order; an unknown model first. */
export function modelOptions(model: string): ModelOption[] {
  const entry = findModelIn(model, MODEL_NAMES)
  const listed = MODEL_NAMES.map((m): ModelOption => (m === entry ? { value: model, label: m.label, current: true, choosable: true } : { value: m.id, label: m.label, current: false, choosable: true }))
  if (entry !== null) return listed
  return [{ value: model, label: `${isolated(model)} (not in Loupe's list)`, current: true, choosable: false }, ...listed]
}

/** The models a switch from `model` may go to: the app's list but the session's own model, however it is spelled. */
export function switchTargets(model: string): ModelOption[] {
  // A model not read yet (the chat not loaded): nothing to switch from.
  if (model === '') return []
  return modelOptions(model).filter((o) => o.choosable && !o.current)
}
