/**
 * The skills listing (docs/context-engine.md "Memory and skills"): skills in `.loupe/skills/<name>/SKILL.md` are
 * listed by name and description only, sorted, each description capped at 250 characters, the whole list within 1% of
 * the context window. When the list is too long, descriptions get shorter, then only names are listed, then the tail
 * of the list is counted instead of shown. The skill's body is loaded by the `skill` tool when it is used.
 *
 * A skill is listed under its folder's name, the name the `skill` tool loads it by (decision 0060). The frontmatter
 * `name` is the same for a skill written to the Agent Skills format; where it differs, it follows the folder name as
 * a title (`- pdf (pdf-tools): …`) and a note says so. A folder whose name the tool would refuse is not listed.
 */
import type { GatheredContext } from './gathered'
import type { ResolveNote } from './instructions'
import { SKILL_NAME_PATTERN } from '../tools/schemas'
import { splitFrontmatter } from './frontmatter'
import { skipWords } from './instructions'

export const SKILL_DESCRIPTION_MAX_CHARS = 250
/** The list may use at most this share of the context window. */
export const SKILLS_WINDOW_SHARE = 0.01
/** Description caps tried in turn until the list fits; 0 means names only. */
const DESCRIPTION_CAPS: ReadonlyArray<number> = [SKILL_DESCRIPTION_MAX_CHARS, 120, 60, 0]
/** Characters per token, the inverse of estimate.ts's rule. */
const CHARS_PER_TOKEN = 4

export const SKILLS_HEADER =
  '# Skills\n\nEach skill holds instructions for one kind of task. When a task matches a description below, load the skill with the `skill` tool before starting.'

export interface SkillSummary {
  /** The folder's name under .loupe/skills: what the `skill` tool takes. */
  readonly name: string
  /** The frontmatter `name` where it differs from the folder's, else null. */
  readonly title: string | null
  readonly description: string
  readonly path: string
}

export interface SkillsSection {
  readonly text: string
  readonly skills: ReadonlyArray<SkillSummary>
  /** The description cap the list was rendered with (0: names only). */
  readonly descriptionCap: number
  readonly notes: ReadonlyArray<ResolveNote>
}

/**
 * Reads name and description from each gathered SKILL.md. A skill without frontmatter or a frontmatter `name`, or in
 * a folder whose name the `skill` tool refuses, is skipped with a note; one whose frontmatter `name` is not its
 * folder's is listed under the folder's, with a note.
 */
export function summarizeSkills(gathered: GatheredContext): { skills: SkillSummary[]; notes: ResolveNote[] } {
  const skills: SkillSummary[] = []
  const notes: ResolveNote[] = []
  for (const skill of gathered.skills) {
    const file = gathered.files[skill.fileId]
    if (file === undefined) continue
    if (!SKILL_NAME_PATTERN.test(skill.dirName)) {
      const message = `${file.path} is not listed: its folder name "${skill.dirName}" is not a skill name the \`skill\` tool takes (letters, digits, ".", "_" or "-", at most 64)`
      notes.push({ path: file.path, kind: 'bad_name', message })
      continue
    }
    if (!file.read.ok) {
      notes.push({ path: file.path, kind: 'skipped', message: `${file.path} was not read: ${skipWords(file.read.reason)}` })
      continue
    }
    const fm = splitFrontmatter(file.read.text)
    if (fm.kind !== 'ok') {
      const why = fm.kind === 'bad' ? `its frontmatter does not parse (${fm.error})` : 'it has no frontmatter'
      notes.push({ path: file.path, kind: 'bad_frontmatter', message: `${file.path} is not listed: ${why}` })
      continue
    }
    const name = typeof fm.data.name === 'string' ? oneLine(fm.data.name) : ''
    if (name === '') {
      notes.push({ path: file.path, kind: 'bad_frontmatter', message: `${file.path} is not listed: it has no \`name\`` })
      continue
    }
    const title = name === skill.dirName ? null : name
    if (title !== null) {
      notes.push({ path: file.path, kind: 'skill_name', message: `${file.path} names itself "${title}": it is listed and loaded as ${skill.dirName}, its folder's name` })
    }
    const description = typeof fm.data.description === 'string' ? oneLine(fm.data.description) : ''
    skills.push({ name: skill.dirName, title, description, path: file.path })
  }
  skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { skills, notes }
}

export function renderSkills(gathered: GatheredContext, contextWindowTokens: number): SkillsSection {
  const { skills, notes } = summarizeSkills(gathered)
  if (skills.length === 0) return { text: '', skills, descriptionCap: SKILL_DESCRIPTION_MAX_CHARS, notes }
  const budgetChars = Math.floor(contextWindowTokens * SKILLS_WINDOW_SHARE * CHARS_PER_TOKEN)
  for (const cap of DESCRIPTION_CAPS) {
    const text = listText(skills, cap)
    if (text.length <= budgetChars) {
      if (cap < SKILL_DESCRIPTION_MAX_CHARS) notes.push(shortenedNote(cap))
      return { text, skills, descriptionCap: cap, notes }
    }
  }
  // Even names alone do not fit: list as many as fit and count the rest.
  let shown = skills.length
  let text = listText(skills, 0)
  while (shown > 0 && text.length > budgetChars) {
    shown--
    text = `${listText(skills.slice(0, shown), 0)}\n- … and ${skills.length - shown} more skills, not listed for space`
  }
  notes.push({
    path: '.loupe/skills',
    kind: 'omitted',
    message: `${skills.length - shown} skills were left out of the listing to stay within 1% of the context window`,
  })
  return { text, skills, descriptionCap: 0, notes }
}

function listText(skills: ReadonlyArray<SkillSummary>, cap: number): string {
  const lines = skills.map((s) => {
    if (cap === 0) return `- ${s.name}`
    const named = s.title === null ? s.name : `${s.name} (${s.title})`
    if (s.description === '') return `- ${named}`
    return `- ${named}: ${capText(s.description, cap)}`
  })
  return `${SKILLS_HEADER}\n\n${lines.join('\n')}`
}

function capText(text: string, cap: number): string {
  if (text.length <= cap) return text
  let end = cap - 1
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return `${text.slice(0, end).trimEnd()}…`
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function shortenedNote(cap: number): ResolveNote {
  const how = cap === 0 ? 'only skill names are listed' : `descriptions were shortened to ${cap} characters`
  return { path: '.loupe/skills', kind: 'truncated', message: `${how} to stay within 1% of the context window` }
}
