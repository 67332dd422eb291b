/**
 * A project's compaction settings and extensions, from `<root>/.loupe/config.toml` (docs/compaction.md
 * "Context edits and extension points"):
 *
 *   [compaction]
 *   auto = true            # automatic compaction
 *   threshold = 0.8        # of the window
 *   target = 0.6
 *   keep_steps = 4
 *   window = 200000        # optional: compact as if the window were this many tokens
 *
 *   [extensions]
 *   context = "trim-old-tools"        # a built-in name, or a module path inside the project ("./.loupe/ext/ctx.mjs")
 *   compactor = "default"
 *   memory = "file"
 *   sections = ["./.loupe/ext/todo.mjs"]
 *
 * Read through the instruction files' door (the real path must stay inside the root). A missing file means the
 * defaults; a file that does not parse, or a bad value, means the default for that value and a problem to show.
 */
import { join } from 'node:path'
import { realpath } from 'node:fs/promises'
import { parse } from 'smol-toml'
import { DEFAULT_COMPACTION_SETTINGS, resolveSettings, type CompactionSettings } from '../../engine/compaction/settings'
import { locate, readLocated } from '../instructions/safe-read'

export const CONFIG_PATH = '.loupe/config.toml'

export interface ExtensionSpecs {
  /** A built-in name or a module path relative to the root; null for the default. */
  readonly context: string | null
  readonly compactor: string | null
  readonly memory: string | null
  readonly sections: ReadonlyArray<string>
}

export interface ProjectConfig {
  readonly settings: CompactionSettings
  readonly extensions: ExtensionSpecs
  readonly problems: ReadonlyArray<string>
}

export const DEFAULT_PROJECT_CONFIG: ProjectConfig = {
  settings: DEFAULT_COMPACTION_SETTINGS,
  extensions: { context: null, compactor: null, memory: null, sections: [] },
  problems: [],
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function parseProjectConfig(text: string): ProjectConfig {
  let doc: Record<string, unknown>
  try {
    doc = parse(text) as Record<string, unknown>
  } catch (err) {
    return { ...DEFAULT_PROJECT_CONFIG, problems: [`${CONFIG_PATH} does not parse: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`] }
  }
  const problems: string[] = []
  const compaction = doc.compaction === undefined ? {} : doc.compaction
  let settings = DEFAULT_COMPACTION_SETTINGS
  if (!isTable(compaction)) problems.push('[compaction] must be a table')
  else {
    const resolved = resolveSettings(compaction)
    settings = resolved.settings
    problems.push(...resolved.problems.map((p) => `[compaction] ${p.message}`))
  }
  const ext = doc.extensions === undefined ? {} : doc.extensions
  const name = (key: string): string | null => {
    if (!isTable(ext)) return null
    const v = ext[key]
    if (v === undefined) return null
    if (typeof v === 'string' && v.trim() !== '') return v.trim()
    problems.push(`[extensions] ${key} must be a name or a module path`)
    return null
  }
  if (!isTable(ext)) problems.push('[extensions] must be a table')
  const rawSections = isTable(ext) ? ext.sections : undefined
  const sections = Array.isArray(rawSections) ? rawSections.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : []
  if (rawSections !== undefined && !Array.isArray(rawSections)) problems.push('[extensions] sections must be a list of module paths')
  return { settings, extensions: { context: name('context'), compactor: name('compactor'), memory: name('memory'), sections }, problems }
}

export async function loadProjectConfig(root: string): Promise<ProjectConfig> {
  let realRoot: string
  try {
    realRoot = await realpath(root)
  } catch {
    return DEFAULT_PROJECT_CONFIG
  }
  const located = await locate(join(realRoot, CONFIG_PATH), [realRoot])
  if (located.kind === 'missing') return DEFAULT_PROJECT_CONFIG
  if (located.kind !== 'file') return { ...DEFAULT_PROJECT_CONFIG, problems: [`${CONFIG_PATH} was not read (${located.kind})`] }
  const read = await readLocated(located.realPath)
  if (!read.ok) return { ...DEFAULT_PROJECT_CONFIG, problems: [`${CONFIG_PATH} was not read (${read.reason})`] }
  return parseProjectConfig(read.text)
}
