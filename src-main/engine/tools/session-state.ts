/**
 * What the tools remember within a session: for each file the model has seen, the fingerprint of the bytes it saw
 * and which lines it was shown. Two rules rest on it:
 *
 * - read dedup: reading lines already shown, from a file whose fingerprint has not changed, returns a short note
 *   instead of the same text again. The shown ranges are forgotten at each compaction, because the content they
 *   point at may no longer be in the context (`forgetReadsAtCompaction`).
 * - read before edit: edit_file (and write_file over an existing file) is refused unless the file was read in this
 *   session and its fingerprint is unchanged since; that catches edits built on a stale view, including changes
 *   made outside the agent. Fingerprints survive compaction: the file is exactly as the model last saw it.
 *
 * The state is an immutable value the loop folds effects into (`applyToolEffects`), in call order.
 */
import { assertNever, type LineRange, type ToolEffect } from './types'

export interface FileMemory {
  /** sha256 of the file's bytes as last read or written by a tool. */
  readonly fingerprint: string
  /** Lines shown to the model since the last compaction, for this fingerprint. */
  readonly shownRanges: ReadonlyArray<LineRange>
}

export interface ToolSessionState {
  /** Keyed by path relative to the project root, `/`-separated, as the executor resolved it. */
  readonly files: Readonly<Record<string, FileMemory>>
}

export function emptyToolSessionState(): ToolSessionState {
  return { files: {} }
}

function withFile(state: ToolSessionState, path: string, memory: FileMemory): ToolSessionState {
  return { files: { ...state.files, [path]: memory } }
}

export function applyToolEffect(state: ToolSessionState, effect: ToolEffect): ToolSessionState {
  switch (effect.type) {
    case 'file_read': {
      const known = state.files[effect.path]
      const ranges = known !== undefined && known.fingerprint === effect.fingerprint ? known.shownRanges : []
      return withFile(state, effect.path, { fingerprint: effect.fingerprint, shownRanges: [...ranges, effect.range] })
    }
    case 'file_written':
      // The model wrote this content, so an edit may follow without a new read; but it has not been *shown* the
      // file as it now is, so a read must return the content.
      return withFile(state, effect.path, { fingerprint: effect.fingerprint, shownRanges: [] })
    case 'memory_saved':
    case 'todos_updated':
    case 'skill_loaded':
      return state
    default:
      return assertNever(effect)
  }
}

export function applyToolEffects(state: ToolSessionState, effects: ReadonlyArray<ToolEffect>): ToolSessionState {
  return effects.reduce(applyToolEffect, state)
}

/**
 * At a compaction the shown content may leave the context, so no read may be answered with "unchanged". A take-back
 * that drops a read (decision 0024) forgets them the same way.
 */
export function forgetReadsAtCompaction(state: ToolSessionState): ToolSessionState {
  const files: Record<string, FileMemory> = {}
  for (const [path, memory] of Object.entries(state.files)) files[path] = { fingerprint: memory.fingerprint, shownRanges: [] }
  return { files }
}

/**
 * The earlier read that already showed `wanted` of this exact file content, if any. An empty wanted range (an empty
 * file) is covered by any earlier read of the same content.
 */
export function findUnchangedRead(
  state: ToolSessionState,
  path: string,
  fingerprint: string,
  wanted: LineRange,
): LineRange | null {
  const known = state.files[path]
  if (known === undefined || known.fingerprint !== fingerprint) return null
  const covering = known.shownRanges.find((shown) =>
    wanted.endLine < wanted.startLine ? true : shown.startLine <= wanted.startLine && shown.endLine >= wanted.endLine,
  )
  return covering ?? null
}

export type EditCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: 'not_read' | 'changed_since_read'; readonly reason: string }

/** Whether a file the model wants to change is, byte for byte, the file it last saw. */
export function checkEditable(state: ToolSessionState, path: string, currentFingerprint: string): EditCheck {
  const known = state.files[path]
  if (known === undefined) {
    return {
      ok: false,
      code: 'not_read',
      reason: `${path} has not been read in this session. Read it with read_file first, then retry the change.`,
    }
  }
  if (known.fingerprint !== currentFingerprint) {
    return {
      ok: false,
      code: 'changed_since_read',
      reason:
        `${path} has changed since you last read it (edited outside this conversation or by a command). ` +
        `Read it again with read_file, then retry the change against its current content.`,
    }
  }
  return { ok: true }
}
