/**
 * edit_file and write_file. Both refuse to change an existing file unless the model read it in this session and
 * it is, byte for byte, what the model saw (session-state.ts `checkEditable`); both write through the door,
 * atomically.
 */
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import { applyExactEdit } from '../../engine/tools/edit'
import { renderEditResult, splitLines } from '../../engine/tools/render'
import type { EditFileInput, WriteFileInput } from '../../engine/tools/schemas'
import { checkEditable } from '../../engine/tools/session-state'
import { notAFile, notFound, refusal, type ToolDeps } from './deps'
import { fingerprintOf, type InsidePath } from './project-fs'
import { isBinary } from './read-file'

/** Reads an existing file for a change and checks the model has seen exactly this content. */
async function readForChange(path: InsidePath, deps: ToolDeps): Promise<{ ok: true; text: string } | { ok: false; outcome: ToolOutcome }> {
  const bytes = await deps.fs.readBytes(path)
  const check = checkEditable(deps.state, path.rel, fingerprintOf(bytes))
  if (!check.ok) return { ok: false, outcome: errorOutcome(check.code, check.reason) }
  if (isBinary(bytes)) return { ok: false, outcome: errorOutcome('binary', `${path.rel} is a binary file; it cannot be edited as text.`) }
  return { ok: true, text: bytes.toString('utf8') }
}

export async function editFileTool(input: EditFileInput, deps: ToolDeps): Promise<ToolOutcome> {
  const resolution = await deps.fs.resolve(input.path)
  if (!resolution.ok) return refusal(resolution)
  const path = resolution.path
  if (path.kind === 'missing') return notFound(path, 'To create a file, use write_file.')
  if (path.kind !== 'file') return notAFile(path)
  const current = await readForChange(path, deps)
  if (!current.ok) return current.outcome
  const edit = applyExactEdit(current.text, input.old_string, input.new_string, path.rel)
  if (!edit.ok) return errorOutcome(edit.code, edit.reason)
  await deps.fs.writeText(path, edit.text)
  return okOutcome(renderEditResult(path.rel, splitLines(edit.text), edit.line, splitLines(input.new_string).length), [
    { type: 'file_written', path: path.rel, fingerprint: fingerprintOf(edit.text), created: false },
  ])
}

export async function writeFileTool(input: WriteFileInput, deps: ToolDeps): Promise<ToolOutcome> {
  const resolution = await deps.fs.resolve(input.path)
  if (!resolution.ok) return refusal(resolution)
  const path = resolution.path
  if (path.kind !== 'missing' && path.kind !== 'file') return notAFile(path)
  const created = path.kind === 'missing'
  if (!created) {
    const current = await readForChange(path, deps)
    if (!current.ok) return current.outcome
  }
  await deps.fs.writeText(path, input.content)
  const lineCount = splitLines(input.content).length
  return okOutcome(`${created ? 'Created' : 'Overwrote'} ${path.rel} (${lineCount} line${lineCount === 1 ? '' : 's'}).`, [
    { type: 'file_written', path: path.rel, fingerprint: fingerprintOf(input.content), created },
  ])
}
