/**
 * The registry of named sections. Every piece of text the builder adds to a request belongs to one section, and
 * every section declares how long its bytes stay the same (docs/design.md §1, rule 2: once said, don't move it).
 */

/**
 * - `static`: the same bytes for every session with the same app version, settings and project facts (no time,
 *   no counters, nothing that changes between passes).
 * - `session`: frozen when the session starts, at its last checkpoint, or when the user applies an edit now.
 * - `volatile`: may change on every pass; must say why, and is never placed above a breakpoint.
 */
export type Stability = 'static' | 'session' | 'volatile'

/** Where a section's text goes in the request. */
export type Placement = 'static_block' | 'session_block' | 'first_message' | 'tail'

export type BuiltInSection =
  | 'base_rules'
  | 'identity'
  | 'features'
  | 'build_notes'
  | 'project_instructions'
  | 'memory'
  | 'skills'
  | 'session_context'

export interface SectionSpec {
  readonly name: BuiltInSection
  readonly stability: Stability
  readonly placement: Placement
  readonly purpose: string
}

/** In cache order. The builder renders them in exactly this order; a section with empty text is left out. */
export const SECTIONS: ReadonlyArray<SectionSpec> = [
  { name: 'base_rules', stability: 'static', placement: 'static_block', purpose: 'who Loupe is and how it works' },
  { name: 'identity', stability: 'static', placement: 'static_block', purpose: 'the app and model names' },
  { name: 'features', stability: 'static', placement: 'static_block', purpose: 'one line per feature that is on' },
  { name: 'build_notes', stability: 'static', placement: 'static_block', purpose: 'detected build and test commands' },
  {
    name: 'project_instructions',
    stability: 'session',
    placement: 'session_block',
    purpose: 'instruction files and always-on rules',
  },
  { name: 'memory', stability: 'session', placement: 'session_block', purpose: 'saved project and user memory' },
  { name: 'skills', stability: 'session', placement: 'session_block', purpose: 'skill names and descriptions' },
  {
    name: 'session_context',
    stability: 'session',
    placement: 'first_message',
    purpose: 'project, root, listing, git and date when the session started',
  },
]

/**
 * A section the caller adds beyond the built-in ones (a mode line, a todo list …). `volatile` needs a reason and
 * may only go to the `tail` (after the newest breakpoint); the builder throws a PlanError otherwise.
 */
export interface ExtraSection {
  readonly name: string
  readonly stability: Stability
  readonly placement: 'static_block' | 'session_block' | 'tail'
  readonly text: string
  /** Why the section may change every pass. Required when `stability` is `volatile`. */
  readonly reason?: string
}

/** Text joined into one system block: sections are separated by a blank line. */
export const SECTION_SEPARATOR = '\n\n'
