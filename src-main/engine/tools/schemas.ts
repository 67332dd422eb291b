/**
 * Run-time validation of each tool's input. These zod schemas are the authority on what an input may be; the JSON
 * schemas sent to the model (specs.ts) describe the same shapes, and test/engine/tools/specs.test.ts keeps the two
 * in step. Objects are strict: an unknown key is an error the model can read and fix, not something ignored.
 */
import { z } from 'zod'
import { BASH_MAX_TIMEOUT_MS, REMEMBER_MAX_FACT_CHARS, TODO_MAX_ITEMS } from './limits'
import type { ToolName } from './types'

const nonEmpty = z.string().min(1)

/** A skill is a folder under .loupe/skills; its name must never be able to name a path. */
export const SKILL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern)
    return true
  } catch {
    return false
  }
}

export const readFileInput = z.strictObject({
  path: nonEmpty,
  offset: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).optional(),
})
export const listDirInput = z.strictObject({ path: nonEmpty })
export const globInput = z.strictObject({ pattern: nonEmpty })
export const grepInput = z.strictObject({
  pattern: nonEmpty.refine(compiles, { message: 'not a valid regular expression' }),
  path: nonEmpty.optional(),
  glob: nonEmpty.optional(),
})
export const editFileInput = z
  .strictObject({ path: nonEmpty, old_string: nonEmpty, new_string: z.string() })
  .refine((input) => input.old_string !== input.new_string, {
    message: 'old_string and new_string are identical, so the edit would change nothing',
  })
export const writeFileInput = z.strictObject({ path: nonEmpty, content: z.string() })
export const bashInput = z.strictObject({
  command: nonEmpty,
  timeout_ms: z.number().int().min(1).max(BASH_MAX_TIMEOUT_MS).optional(),
})
export const rememberInput = z.strictObject({
  fact: nonEmpty.max(REMEMBER_MAX_FACT_CHARS).refine((fact) => fact.trim() !== '', { message: 'fact is blank' }),
  scope: z.enum(['project', 'user']),
})
export const todoWriteInput = z.strictObject({
  todos: z.array(z.strictObject({ content: nonEmpty, status: z.enum(['pending', 'in_progress', 'done']) })).max(TODO_MAX_ITEMS),
})
export const skillInput = z.strictObject({
  name: z.string().regex(SKILL_NAME_PATTERN, { message: 'a skill name is letters, digits, ".", "_" or "-"' }),
})
export const compactInput = z.strictObject({
  upto: nonEmpty.optional(),
  focus: nonEmpty.optional(),
  instructions: nonEmpty.optional(),
})

export const INPUT_SCHEMAS = {
  bash: bashInput,
  compact: compactInput,
  edit_file: editFileInput,
  glob: globInput,
  grep: grepInput,
  list_dir: listDirInput,
  read_file: readFileInput,
  remember: rememberInput,
  skill: skillInput,
  todo_write: todoWriteInput,
  write_file: writeFileInput,
} as const satisfies Record<ToolName, z.ZodType>

export type ToolInputs = { readonly [K in ToolName]: Readonly<z.infer<(typeof INPUT_SCHEMAS)[K]>> }
export type ReadFileInput = ToolInputs['read_file']
export type ListDirInput = ToolInputs['list_dir']
export type GlobInput = ToolInputs['glob']
export type GrepInput = ToolInputs['grep']
export type EditFileInput = ToolInputs['edit_file']
export type WriteFileInput = ToolInputs['write_file']
export type BashInput = ToolInputs['bash']
export type RememberInput = ToolInputs['remember']
export type SkillInput = ToolInputs['skill']

/** A call whose input has been validated: the name tells the input's type. */
export type ParsedToolCall = { readonly [K in ToolName]: { readonly name: K; readonly input: ToolInputs[K] } }[ToolName]

/** One line per problem, `path: message`, so the model can see which field to fix. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : 'input'
      return `${where}: ${issue.message}`
    })
    .join('\n')
}
