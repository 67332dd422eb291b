/** list_dir: one folder's entries, sorted. */
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import { renderListing } from '../../engine/tools/render'
import type { ListDirInput } from '../../engine/tools/schemas'
import { notFound, refusal, type ToolDeps } from './deps'

export async function listDirTool(input: ListDirInput, deps: ToolDeps): Promise<ToolOutcome> {
  const resolution = await deps.fs.resolve(input.path)
  if (!resolution.ok) return refusal(resolution)
  const path = resolution.path
  if (path.kind === 'missing') return notFound(path, 'Use list_dir on its parent, or glob, to find the right path.')
  if (path.kind !== 'dir') return errorOutcome('not_a_directory', `${path.rel} is not a folder. Use read_file to read a file.`)
  return okOutcome(renderListing(path.rel, await deps.fs.list(path)))
}
