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
import { z } from 'zod'
import { INITIAL_AUTO_STATE } from '../../engine/compaction/policy'
import { sessionBlockText, type FrozenSession } from '../../engine/prompt'
import { DEFAULT_PERMISSION_MODE, NO_RULES } from '../../engine/tools/permissions'
import { emptyToolSessionState } from '../../engine/tools/session-state'
import { nodeHasher } from '../hasher'
import { DEFAULT_MODEL_ID, findModel } from '../model/models'
import { NoteSchema } from './entry-schema'
import { ImportError, isRow, type Row } from './import-error'

const Notes = z.array(NoteSchema)

export function importableState(state: Row): Row {
  // A state of another version is not read at all (parseSessionState starts the session afresh): nothing in it holds.
  if (state.version !== 1) return state
  const out: Row = { ...state }
  // A field left out reads as a new session's (parseSessionState): only what is there is checked.
  if ('mode' in state) out.mode = DEFAULT_PERMISSION_MODE
  if ('rules' in state) out.rules = NO_RULES
  const model = state.model
  if (model !== undefined && (typeof model !== 'string' || !findModel(model))) {
    throw new ImportError(`session.state.model ${JSON.stringify(model).slice(0, 60)} is not a model this app knows`)
  }
  if (state.frozen !== undefined && state.frozen !== null) checkFrozen(state.frozen, typeof model === 'string' ? model : DEFAULT_MODEL_ID)
  if ('previousHistoryLength' in state && !(Number.isSafeInteger(state.previousHistoryLength) && (state.previousHistoryLength as number) >= 0)) out.previousHistoryLength = 0
  if ('deliveredNotes' in state && !(Array.isArray(state.deliveredNotes) && state.deliveredNotes.every((n) => typeof n === 'string'))) out.deliveredNotes = []
  if ('carriedNotes' in state && !Notes.safeParse(state.carriedNotes).success) out.carriedNotes = []
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
  if (!isRow(frozen) || !isRow(f.project) || !isRow(f.session) || !isRow(f.context)) throw new ImportError('session.state.frozen is not a frozen prompt (project, session and context)')
  try {
    // The prompt builder run once on it, as the Files view renders a session block to price an edit.
    sessionBlockText(f, f.session, model, nodeHasher)
  } catch (err) {
    throw new ImportError(`session.state.frozen does not render as a prompt: ${err instanceof Error ? err.message : String(err)}`)
  }
}

function validToolState(value: unknown): boolean {
  if (!isRow(value) || !isRow(value.files)) return false
  return Object.values(value.files).every((m) => isRow(m) && typeof m.fingerprint === 'string' && Array.isArray(m.shownRanges))
}
