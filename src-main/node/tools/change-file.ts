/**
 * edit_file and write_file. Both refuse to change an existing file unless the model read it in this session and
 * it is, byte for byte, what the model saw (session-state.ts `checkEditable`); both write through the door,
 * atomically.
 *
 * edit_file also refuses a file that is not valid UTF-8: it rewrites the whole file from its decoded text, and
 * decoding would turn every invalid byte, anywhere in the file, into U+FFFD. write_file may replace such a file
 * (read_file showed it, with a note saying it is not UTF-8): it writes only what the model gives, as a whole.
 */
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import { applyExactEdit } from '../../engine/tools/edit'
import { renderEditResult, splitLines } from '../../engine/tools/render'
import type { EditFileInput, WriteFileInput } from '../../engine/tools/schemas'
import { checkEditable } from '../../engine/tools/session-state'
import { READ_MAX_FILE_BYTES } from '../../engine/tools/limits'
import { notAFile, notFound, readFailure, refusal, type ToolDeps } from './deps'
import { fingerprintOf, type InsidePath } from './project-fs'
import { isBinary } from './read-file'
import { decodeUtf8Exact } from '../fs/regular-file'
import { previewChange, refusedPreview, type ChangePreview } from '../../engine/tools/preview'

type ForChange = { ok: true; text: string | null } | { ok: false; outcome: ToolOutcome }

/**
 * Reads an existing file for a change and checks the model has seen exactly this content. `text` is the file's
 * exact text, or null when it is not valid UTF-8.
 */
async function readForChange(path: InsidePath, deps: ToolDeps, tool: 'edit_file' | 'write_file'): Promise<ForChange> {
  if (path.size > READ_MAX_FILE_BYTES) {
    return {
      ok: false,
      outcome: errorOutcome('too_large', `${path.rel} is ${path.size} bytes, more than read_file reads (${READ_MAX_FILE_BYTES}); ${tool} cannot change a file that cannot be read first.`),
    }
  }
  let bytes: Buffer
  try {
    bytes = await deps.fs.readBytes(path, READ_MAX_FILE_BYTES)
  } catch (error) {
    return { ok: false, outcome: readFailure(path, error) }
  }
  const check = checkEditable(deps.state, path.rel, fingerprintOf(bytes))
  if (!check.ok) return { ok: false, outcome: errorOutcome(check.code, check.reason) }
  if (isBinary(bytes)) return { ok: false, outcome: errorOutcome('binary', `${path.rel} is a binary file; it cannot be edited as text.`) }
  return { ok: true, text: decodeUtf8Exact(bytes) }
}

/** A change the tool checked and may make: the file, its text now (null: none, or not UTF-8) and after. */
type ChangePlan =
  | { readonly ok: true; readonly path: InsidePath; readonly before: string | null; readonly beforeIsText: boolean; readonly after: string; readonly line: number }
  | { readonly ok: false; readonly outcome: ToolOutcome; readonly rel: string }

/** Every check edit_file makes, and the text it would write. Writes nothing. */
async function planEdit(input: EditFileInput, deps: ToolDeps): Promise<ChangePlan> {
  const resolution = await deps.fs.resolve(input.path)
  if (!resolution.ok) return { ok: false, outcome: refusal(resolution), rel: input.path }
  const path = resolution.path
  const refused = (outcome: ToolOutcome): ChangePlan => ({ ok: false, outcome, rel: path.rel })
  const guarded = await deps.fs.writeRefusal(path)
  if (guarded !== null) return refused(errorOutcome('outside_root', guarded))
  if (path.kind === 'missing') return refused(notFound(path, 'To create a file, use write_file.'))
  if (path.kind !== 'file') return refused(notAFile(path))
  const current = await readForChange(path, deps, 'edit_file')
  if (!current.ok) return refused(current.outcome)
  if (current.text === null) {
    return refused(
      errorOutcome(
        'binary',
        `${path.rel} is not UTF-8 text, so edit_file cannot change it: rewriting it would replace every invalid byte in the file. ` +
          'Leave it, change it with a command that works on bytes, or replace all of it with write_file.',
      ),
    )
  }
  const edit = applyExactEdit(current.text, input.old_string, input.new_string, path.rel)
  if (!edit.ok) return refused(errorOutcome(edit.code, edit.reason))
  return { ok: true, path, before: current.text, beforeIsText: true, after: edit.text, line: edit.line }
}

/** Every check write_file makes. Writes nothing. */
async function planWrite(input: WriteFileInput, deps: ToolDeps): Promise<ChangePlan> {
  const resolution = await deps.fs.resolve(input.path)
  if (!resolution.ok) return { ok: false, outcome: refusal(resolution), rel: input.path }
  const path = resolution.path
  const guarded = await deps.fs.writeRefusal(path)
  if (guarded !== null) return { ok: false, outcome: errorOutcome('outside_root', guarded), rel: path.rel }
  if (path.kind !== 'missing' && path.kind !== 'file') return { ok: false, outcome: notAFile(path), rel: path.rel }
  if (path.kind === 'missing') {
    if (path.blockedBy !== null) {
      return { ok: false, outcome: errorOutcome('not_a_directory', `${path.blockedBy} is a file, not a folder, so ${path.rel} cannot be created under it.`), rel: path.rel }
    }
    return { ok: true, path, before: null, beforeIsText: true, after: input.content, line: 1 }
  }
  const current = await readForChange(path, deps, 'write_file')
  if (!current.ok) return { ok: false, outcome: current.outcome, rel: path.rel }
  return { ok: true, path, before: current.text, beforeIsText: current.text !== null, after: input.content, line: 1 }
}

export async function editFileTool(input: EditFileInput, deps: ToolDeps): Promise<ToolOutcome> {
  const plan = await planEdit(input, deps)
  if (!plan.ok) return plan.outcome
  await deps.fs.writeText(plan.path, plan.after)
  return okOutcome(
    renderEditResult(plan.path.rel, splitLines(plan.after), plan.line, splitLines(input.new_string).length),
    [{ type: 'file_written', path: plan.path.rel, fingerprint: fingerprintOf(plan.after), created: false }],
    previewChange(plan.path.rel, plan.before, plan.after, plan.beforeIsText),
  )
}

export async function writeFileTool(input: WriteFileInput, deps: ToolDeps): Promise<ToolOutcome> {
  const plan = await planWrite(input, deps)
  if (!plan.ok) return plan.outcome
  const created = plan.path.kind === 'missing'
  await deps.fs.writeText(plan.path, plan.after)
  const lineCount = splitLines(plan.after).length
  return okOutcome(
    `${created ? 'Created' : 'Overwrote'} ${plan.path.rel} (${lineCount} line${lineCount === 1 ? '' : 's'}).`,
    [{ type: 'file_written', path: plan.path.rel, fingerprint: fingerprintOf(plan.after), created }],
    previewChange(plan.path.rel, plan.before, plan.after, plan.beforeIsText),
  )
}

/** An edit_file or write_file call with its input parsed. */
export type FileChangeCall = { name: 'edit_file'; input: EditFileInput } | { name: 'write_file'; input: WriteFileInput }

/**
 * What an edit_file or write_file call would do, for its approval: made by the same checks as the call itself, so a
 * call that will be refused says why instead of showing a change.
 */
export async function previewFileChange(call: FileChangeCall, deps: ToolDeps): Promise<ChangePreview> {
  const plan = call.name === 'edit_file' ? await planEdit(call.input, deps) : await planWrite(call.input, deps)
  if (!plan.ok) return refusedPreview(plan.rel, refusalForUser(plan.outcome))
  return previewChange(plan.path.rel, plan.before, plan.after, plan.beforeIsText)
}

/** The error an edit_file or write_file call gets as things stand, from the same checks as the call; null when it would change the file. */
export async function fileChangeRefusal(call: FileChangeCall, deps: ToolDeps): Promise<ToolOutcome | null> {
  const plan = call.name === 'edit_file' ? await planEdit(call.input, deps) : await planWrite(call.input, deps)
  return plan.ok ? null : plan.outcome
}

/**
 * Why the call will be refused, told to the user. The outcome's own text is written to the model ("since you last
 * read it", "use write_file"), which reads wrong on the user's screen.
 */
function refusalForUser(outcome: ToolOutcome): string {
  const code = outcome.kind === 'error' ? outcome.code : null
  switch (code) {
    case 'not_read':
      return 'The agent has not read this file in this session, and a file is changed only after it is read.'
    case 'changed_since_read':
      return 'The file changed on disk after the agent read it, so the agent would be changing text it has not seen.'
    case 'no_match':
      return 'The text the agent wants to replace is not in the file.'
    case 'ambiguous_match':
      return 'The text the agent wants to replace is in the file more than once.'
    case 'not_found':
      return 'The file does not exist.'
    case 'not_a_file':
      return 'The path is not a file.'
    case 'not_a_directory':
      return 'A folder on the path is a file, so the file cannot be made there.'
    case 'outside_root':
      return 'The path is outside the project.'
    case 'too_large':
      return 'The file is too large to be read, so it cannot be changed.'
    case 'binary':
      return 'The file is binary, or not UTF-8 text, so edit_file cannot change it.'
    default:
      return `The call will fail: ${outcome.content}`
  }
}
