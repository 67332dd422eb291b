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
 *   chosen back, above the app's models, each of which a switch may go to;
 * - a model past its end of life (decision 0065) is listed only as the session's own, named retired, and cannot be
 *   chosen back; one with an end of life still ahead is listed and named with its date ("retires 22 Jan 2027").
 */
import { dayWords, findModelIn, lifeOf, lifeWords, MODEL_NAMES } from '../../../src-preload/models'

export interface ModelOption {
  /** The id the option stands for: the session's own spelling for the session's model. */
  readonly value: string
  readonly label: string
  /** The session's model. */
  readonly current: boolean
  /** A model a switch may go to: one of the app's list the API still serves, not one the app does not know. */
  readonly choosable: boolean
}

/**
 * First strong isolate … pop directional isolate: an option's text holds no element, so a name read from the disk is
 * isolated with the characters `<bdi>` stands for, and a right-to-left id or an override in it stays inside them.
 */
const isolated = (text: string) => `\u2068${text}\u2069`

/** The options of the model choice for a session on `model` at `now`, in the list's order; an unknown model first. */
export function modelOptions(model: string, now: number = Date.now()): ModelOption[] {
  const entry = findModelIn(model, MODEL_NAMES)
  const listed = MODEL_NAMES.flatMap((m): ModelOption[] => {
    const life = lifeOf(m.id, now)
    const label = life ? `${m.label} (${lifeWords(life)})` : m.label
    const choosable = life?.state !== 'retired'
    if (m === entry) return [{ value: model, label, current: true, choosable }]
    // A retired model no session is on is no choice at all: not listed.
    return choosable ? [{ value: m.id, label, current: false, choosable }] : []
  })
  if (entry !== null) return listed
  return [{ value: model, label: `${isolated(model)} (not in Loupe's list)`, current: true, choosable: false }, ...listed]
}

/** The choice's tooltip: the session's model by its id, and why to switch from one the app cannot send to. */
export function modelChoiceTitle(model: string, now: number = Date.now()): string {
  if (findModelIn(model, MODEL_NAMES) === null) return `This session's model, ${model}, is not one Loupe knows, so its passes have no price: switch to one of Loupe's models`
  const life = lifeOf(model, now)
  if (life?.state === 'retired') return `This session's model, ${model}, was ${lifeWords(life)}: the API no longer serves it, so its next pass would be refused. Switch to another model`
  if (life) return `This session's model: ${model}. The API stops serving it on ${dayWords(life.endOfLife)}: switch before then`
  return `This session's model: ${model}`
}

/**
 * The line the chat shows above the message box while the session's model is retired (decision 0065): the tooltip of
 * the choice says it too, but a user about to send does not read a tooltip. Null for any other model. `simulated`:
 * the offline simulator answers now, and it still answers a retired model.
 */
export function retiredModelNote(model: string, now: number, simulated: boolean): string | null {
  const life = lifeOf(model, now)
  if (life?.state !== 'retired') return null
  const label = findModelIn(model, MODEL_NAMES)?.label ?? model
  const offline = simulated ? ' (the offline simulator still answers it)' : ''
  return `This session's model, ${label}, was retired on ${dayWords(life.endOfLife)}: the Anthropic API no longer serves it${offline}. Switch to another model in the header above; the switch is priced first.`
}

/** The models a switch from `model` may go to: the app's list but the session's own model, however it is spelled. */
export function switchTargets(model: string, now: number = Date.now()): ModelOption[] {
  // A model not read yet (the chat not loaded): nothing to switch from.
  if (model === '') return []
  return modelOptions(model, now).filter((o) => o.choosable && !o.current)
}
