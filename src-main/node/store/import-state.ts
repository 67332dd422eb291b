/**
 * A session's state as an export carries it (`sessions.state`), made safe to continue from. The state is the
 * runtime's own bookkeeping, read back as it was written (session/state.ts parseSessionState merges what it finds),
 * so a file made or edited by hand could name a model the app does not have, or hold a frozen prompt the builder
 * cannot render: the session would import, and then fail every turn and every keep-warm pre-warm.
 *
 * What the next turn rests on is checked, and a file that fails is refused: the model must be one the app knows,
 * and the frozen prompt must render (the prompt builder is run on it once, with a one-word history). The rest is
 * bookkeeping a new session starts without: a field of the wrong shape goes back to a new session's value (the
 * notes already delivered, the notes a take-back carried, the file baseline, the automatic compaction's record, what
 * the tools read), and a compaction a tool asked for and that never ran is dropped. The permission mode and rules
 * are a new session's whatever the file says (decision 0033).
 */
import { INITIAL_AUTO_STATE } from '../../engine/compaction/policy'
import type { WireMessage } from '../../engine/model/wire'
import { buildPromptPlan, renderNote, type ContextNote, type FrozenSession } from '../../engine/prompt'
import { DEFAULT_PERMISSION_MODE, NO_RULES } from '../../engine/tools/permissions'
import { emptyToolSessionState } from '../../engine/tools/session-state'
import { nodeHasher } from '../hasher'
import { findModel } from '../model/models'

type Row = Record<string, unknown>

const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The state's problem in words, for the refusal ("session.state.model …"). */
export class ImportStateError extends Error {}

const PROBE: WireMessage = { role: 'user', content: [{ type: 'text', text: 'Hi.' }] }
const RENDER_SETTINGS = { features: { sandbox: false, hooks: false, todo: false, skills: false }, staticCacheTtl1h: false } as const

export function importableState(state: Row): Row {
  // A state of another version is not read at all (parseSessionState starts the session afresh): nothing in it holds.
  if (state.version !== 1) return state
  const out: Row = { ...state }
  // A field left out reads as a new session's (parseSessionState): only what is there is checked.
  if ('mode' in state) out.mode = DEFAULT_PERMISSION_MODE
  if ('rules' in state) out.rules = NO_RULES
  const model = state.model
  if (model !== undefined && (typeof model !== 'string' || !findModel(model))) {
    throw new ImportStateError(`session.state.model ${JSON.stringify(model).slice(0, 60)} is not a model this app knows`)
  }
  if (state.frozen !== undefined && state.frozen !== null) checkFrozen(state.frozen, typeof model === 'string' ? model : 'claude-sonnet-4-6')
  if ('previousHistoryLength' in state && !(Number.isSafeInteger(state.previousHistoryLength) && (state.previousHistoryLength as number) >= 0)) out.previousHistoryLength = 0
  if ('deliveredNotes' in state && !(Array.isArray(state.deliveredNotes) && state.deliveredNotes.every((n) => typeof n === 'string'))) out.deliveredNotes = []
  if ('carriedNotes' in state && !(Array.isArray(state.carriedNotes) && state.carriedNotes.every(rendersAsNote))) out.carriedNotes = []
  if ('fileBaseline' in state && !(state.fileBaseline === null || (isRow(state.fileBaseline) && Object.values(state.fileBaseline).every((v) => isRow(v) && typeof v.kind === 'string' && typeof v.signature === 'string')))) out.fileBaseline = null
  const compaction = state.compaction
  const auto = isRow(compaction) && isRow(compaction.auto) ? compaction.auto : null
  const autoOk = auto !== null && Number.isSafeInteger(auto.failures) && typeof auto.disabled === 'boolean' && (auto.attemptedAfterPass === null || typeof auto.attemptedAfterPass === 'string')
  if ('compaction' in state && !(autoOk && isRow(compaction) && compaction.pending === null)) out.compaction = { auto: autoOk ? auto : INITIAL_AUTO_STATE, pending: null }
  if ('toolState' in state && !validToolState(state.toolState)) out.toolState = emptyToolSessionState()
  return out
}

function checkFrozen(frozen: unknown, model: string): void {
  const f = frozen as FrozenSession
  if (!isRow(frozen) || !isRow(f.project) || !isRow(f.session) || !isRow(f.context)) throw new ImportStateError('session.state.frozen is not a frozen prompt (project, session and context)')
  try {
    const plan = buildPromptPlan({
      model,
      maxTokens: 1,
      settings: RENDER_SETTINGS,
      tools: [],
      project: f.project,
      session: f.session,
      context: f.context,
      history: [{ message: PROBE, provenance: { entryIds: [], kind: 'synthetic' } }],
      previousTailIndex: null,
      hasher: nodeHasher,
    })
    // Every block the request would carry must be text the wire takes.
    for (const block of plan.system) if (typeof block.wire.text !== 'string') throw new Error('a system block is not text')
  } catch (err) {
    throw new ImportStateError(`session.state.frozen does not render as a prompt: ${err instanceof Error ? err.message : String(err)}`)
  }
}

function rendersAsNote(note: unknown): boolean {
  // Every note kind carries its text, and a path or label where it names one.
  if (!isRow(note) || typeof note.kind !== 'string' || (note.kind !== 'file_changed' && typeof note.text !== 'string')) return false
  try {
    return typeof renderNote(note as unknown as ContextNote) === 'string'
  } catch {
    return false
  }
}

function validToolState(value: unknown): boolean {
  if (!isRow(value) || !isRow(value.files)) return false
  return Object.values(value.files).every((m) => isRow(m) && typeof m.fingerprint === 'string' && Array.isArray(m.shownRanges))
}
