/**
 * The app's models by id, with the name each is shown by, in the order the model choice lists them. The main
 * process's model table (src-main/node/model/models.ts) adds each one's figures and prices to this list; the renderer
 * reads the names from here, so a model is named from the first paint instead of by its id until `settings.get`
 * answers (docs/decisions/0055-a-model-is-named-from-the-first-paint.md). This module imports nothing, like money.ts,
 * so both sides use it.
 */

export interface ModelName {
  readonly id: string
  readonly label: string
  /**
   * The day (UTC) the API stops serving the model, for the models the Anthropic SDK marks deprecated: @anthropic-ai/sdk
   * 1.14.0, src/internal/data/deprecated-models.ts (docs/reference/anthropic-api.md §1). From that day a request naming
   * it is refused, so the app no longer starts or switches a session to it (docs/decisions/0065-a-retired-model-is-
   * named-and-not-chosen-anew.md); its figures stay, to price the passes it made.
   */
  readonly endOfLife?: string
}

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
  { id: 'claude-opus-4-5', label: 'Claude Opus 4.5', endOfLife: '2027-01-22' },
  { id: 'claude-sonnet-4-5', label: 'Claude Sonnet 4.5', endOfLife: '2026-11-30' },
] as const satisfies ReadonlyArray<ModelName>

/** An id of the app's model table. */
export type ModelId = (typeof MODEL_NAMES)[number]['id']

/** The entry for an id, also for a dated id (`claude-haiku-4-5-20251001` → `claude-haiku-4-5`); null when unknown. */
export function findModelIn<M extends { readonly id: string }>(id: string, models: ReadonlyArray<M>): M | null {
  return models.find((m) => m.id === id) ?? models.find((m) => id.startsWith(`${m.id}-`) && /^\d{8}$/.test(id.slice(m.id.length + 1))) ?? null
}

/** Where a deprecated model stands on a day: still served until its end of life, or retired from it on. */
export interface ModelLife {
  readonly state: 'retiring' | 'retired'
  /** YYYY-MM-DD, UTC. */
  readonly endOfLife: string
}

/** The day (YYYY-MM-DD, UTC) the API stops serving a model of the list (a dated id too); null when none is announced. */
export function endOfLifeOf(id: string): string | null {
  const entry: ModelName | null = findModelIn(id, MODEL_NAMES)
  return entry?.endOfLife ?? null
}

/** The model's life at `now` (ms since the epoch), for a model of the list with an end of life; null otherwise. */
export function lifeOf(id: string, now: number): ModelLife | null {
  return lifeAt(endOfLifeOf(id), now)
}

/** A life from an end of life as `settings.get`'s model table gives it (YYYY-MM-DD, or null for none announced). */
export function lifeAt(endOfLife: string | null, now: number): ModelLife | null {
  if (endOfLife === null) return null
  // The API stops serving it on that day: from its first moment (UTC) the model is retired.
  return { state: new Date(now).toISOString().slice(0, 10) >= endOfLife ? 'retired' : 'retiring', endOfLife }
}

/**
 * The first moment after `now` (ms since the epoch) at which one of the given end-of-life days (YYYY-MM-DD, UTC)
 * begins, or null when none lies ahead: when a view that lists models must be drawn again, as one of them retires.
 * Defaults to the days of the app's list.
 */
export function nextLifeChange(now: number, endOfLifeDays: Iterable<string | null | undefined> = MODEL_NAMES.map((m): string | undefined => (m as ModelName).endOfLife)): number | null {
  let next: number | null = null
  for (const day of endOfLifeDays) {
    if (!day) continue
    const start = Date.parse(`${day}T00:00:00Z`)
    if (Number.isFinite(start) && start > now && (next === null || start < next)) next = start
  }
  return next
}

/** True when the API no longer serves the model at `now`. */
export function isRetired(id: string, now: number): boolean {
  return lifeOf(id, now)?.state === 'retired'
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "30 Nov 2026" for "2026-11-30": the same words in every locale and time zone, as the date is the API's (UTC). */
export function dayWords(isoDay: string): string {
  const [year, month, day] = isoDay.split('-').map(Number)
  return `${day} ${MONTHS[month! - 1]} ${year}`
}

/** "retired 30 Nov 2026" or "retires 22 Jan 2027". */
export function lifeWords(life: ModelLife): string {
  return `${life.state === 'retired' ? 'retired' : 'retires'} ${dayWords(life.endOfLife)}`
}
