/**
 * skill: the body of `<root>/.loupe/skills/<name>/SKILL.md`, without its frontmatter, read through the door. `name` is
 * the folder's name, the one the skills listing gives each skill whatever its frontmatter `name` (decision 0060).
 */
import { MAX_INSTRUCTION_FILE_BYTES } from '../../engine/prompt/gathered'
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import { TOOL_OUTPUT_MAX_CHARS } from '../../engine/tools/limits'
import { capOutput } from '../../engine/tools/output'
import { SKILL_NAME_PATTERN, type SkillInput } from '../../engine/tools/schemas'
import { notAFile, readFailure, refusal, type ToolDeps } from './deps'

export const SKILLS_FOLDER = '.loupe/skills'

const FRONTMATTER = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/

export function skillBody(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(FRONTMATTER, '').trim()
}

async function availableSkills(deps: ToolDeps): Promise<ReadonlyArray<string>> {
  const folder = await deps.fs.resolve(SKILLS_FOLDER)
  if (!folder.ok || folder.path.kind !== 'dir') return []
  // Only the names a call can give: a folder the schema refuses is not listed to the model either.
  return (await deps.fs.list(folder.path)).filter((entry) => entry.kind === 'dir' && SKILL_NAME_PATTERN.test(entry.name)).map((entry) => entry.name)
}

export async function skillTool(input: SkillInput, deps: ToolDeps): Promise<ToolOutcome> {
  const resolution = await deps.fs.resolve(`${SKILLS_FOLDER}/${input.name}/SKILL.md`)
  if (!resolution.ok) return refusal(resolution)
  const path = resolution.path
  if (path.kind === 'missing') {
    const names = await availableSkills(deps)
    return errorOutcome(
      'not_found',
      `There is no skill named "${input.name}". ${names.length === 0 ? 'This project has no skills.' : `Available: ${names.join(', ')}.`}`,
    )
  }
  if (path.kind !== 'file') return notAFile(path)
  let bytes: Buffer
  try {
    // A skill is an instruction file: the prompt builder reads at most 1 MB of one, and so does this.
    bytes = await deps.fs.readBytes(path, MAX_INSTRUCTION_FILE_BYTES)
  } catch (error) {
    return readFailure(path, error)
  }
  const body = skillBody(bytes.toString('utf8'))
  const text = `Skill "${input.name}" (${path.rel}):\n\n${body}`
  return okOutcome(capOutput(text, TOOL_OUTPUT_MAX_CHARS, 'head', `Read the rest with read_file on ${path.rel}.`), [
    { type: 'skill_loaded', name: input.name, path: path.rel },
  ])
}
