/**
 * Per-project compaction settings (threshold, target, keepSteps, automatic on/off), kept where the session runtime
 * already reads them: the `[compaction]` table of `<root>/.loupe/config.toml` (src-main/node/compaction/config.ts).
 * One place, so what the Settings view shows is what the next pass uses, and a team can commit it.
 *
 * Writing edits only the lines of the keys it sets, so comments and other tables stay as written; the result is
 * parsed again and must read back as the values asked for, or nothing is written.
 */
import { realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { resolveSettings } from '../../engine/compaction/settings'
import { CONFIG_PATH, loadProjectConfig, parseProjectConfig } from '../compaction/config'
import { locate, readLocated } from '../instructions'
import { writeFileAtomic } from '../fs/atomic-write'
import { ioCause } from '../fs/io-cause'

export interface ProjectCompaction {
  readonly auto: boolean
  readonly threshold: number
  readonly target: number
  readonly keepSteps: number
}

export interface ProjectCompactionView extends ProjectCompaction {
  readonly configPath: string
  readonly problems: ReadonlyArray<string>
}

export class ProjectSettingsError extends Error {
  constructor(
    readonly code: 'invalid_input' | 'permission_denied' | 'unsupported' | 'io_error',
    message: string,
  ) {
    super(message)
  }
}

export async function readProjectCompaction(root: string): Promise<ProjectCompactionView> {
  const config = await loadProjectConfig(root)
  const { auto, threshold, target, keepSteps } = config.settings
  return { auto, threshold, target, keepSteps, configPath: CONFIG_PATH, problems: config.problems }
}

const KEYS: ReadonlyArray<readonly [keyof ProjectCompaction, string]> = [
  ['auto', 'auto'],
  ['threshold', 'threshold'],
  ['target', 'target'],
  ['keepSteps', 'keep_steps'],
]

const HEADER = /^\s*\[\s*compaction\s*\]\s*(#.*)?$/
const ANY_HEADER = /^\s*\[/

/** The config text with `[compaction]` holding `values`; other lines untouched. Pure (exported for tests). */
export function withCompaction(text: string, values: ProjectCompaction): string {
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n')
  const rendered = (key: keyof ProjectCompaction) => String(values[key])
  const header = lines.findIndex((l) => HEADER.test(l))
  if (header < 0) {
    if (lines.length > 0 && lines.at(-1)!.trim() !== '') lines.push('')
    lines.push('[compaction]', ...KEYS.map(([k, toml]) => `${toml} = ${rendered(k)}`))
    return `${lines.join('\n')}\n`
  }
  let end = lines.findIndex((l, i) => i > header && ANY_HEADER.test(l))
  if (end < 0) end = lines.length
  for (const [key, toml] of KEYS) {
    const pattern = new RegExp(`^(\\s*${toml}\\s*=\\s*)([^#]*?)(\\s*#.*)?$`)
    const at = lines.findIndex((l, i) => i > header && i < end && pattern.test(l))
    if (at >= 0) {
      lines[at] = lines[at]!.replace(pattern, (_m, lead: string, _v: string, comment: string | undefined) => `${lead}${rendered(key)}${comment ?? ''}`)
    } else {
      // After the table's last non-blank line, so a blank line before the next table stays where it was.
      let insert = end
      while (insert - 1 > header && lines[insert - 1]!.trim() === '') insert--
      lines.splice(insert, 0, `${toml} = ${rendered(key)}`)
      end++
    }
  }
  return `${lines.join('\n')}\n`
}

export async function writeProjectCompaction(root: string, values: ProjectCompaction): Promise<ProjectCompactionView> {
  const check = resolveSettings({ auto: values.auto, threshold: values.threshold, target: values.target, keep_steps: values.keepSteps })
  if (check.problems.length > 0) throw new ProjectSettingsError('invalid_input', check.problems.map((p) => p.message).join('; '))
  let realRoot: string
  try {
    realRoot = await realpath(root)
  } catch {
    throw new ProjectSettingsError('io_error', `The project folder ${root} cannot be opened`)
  }
  const path = join(realRoot, CONFIG_PATH)
  const located = await locate(path, [realRoot])
  let text = ''
  // A byte-order mark the file starts with is written back: the rewrite changes the [compaction] table, no other byte.
  let bom = ''
  let target = path
  if (located.kind === 'file') {
    const read = await readLocated(located.realPath, undefined, { keepBom: true })
    if (!read.ok || read.replacedInvalidUtf8) throw new ProjectSettingsError('unsupported', `${CONFIG_PATH} cannot be rewritten: ${read.ok ? 'it is not valid UTF-8' : read.detail}`)
    bom = read.text.startsWith('\uFEFF') ? '\uFEFF' : ''
    text = read.text.slice(bom.length)
    target = located.realPath
  } else if (located.kind === 'outside') {
    throw new ProjectSettingsError('permission_denied', `${CONFIG_PATH} links outside the project (${located.realPath}); it is not written`)
  } else if (located.kind !== 'missing') {
    throw new ProjectSettingsError('unsupported', `${CONFIG_PATH} is not a regular file`)
  }
  const next = withCompaction(text, values)
  const reread = parseProjectConfig(next).settings
  if (reread.auto !== values.auto || reread.threshold !== values.threshold || reread.target !== values.target || reread.keepSteps !== values.keepSteps) {
    throw new ProjectSettingsError('unsupported', `${CONFIG_PATH} sets [compaction] in a form this view does not rewrite (dotted keys or an inline table); edit the file by hand`)
  }
  try {
    await writeFileAtomic(target, bom + next)
  } catch (err) {
    throw new ProjectSettingsError('io_error', `${CONFIG_PATH} could not be written: ${ioCause(err)}`)
  }
  return readProjectCompaction(root)
}
