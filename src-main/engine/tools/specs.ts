/**
 * The tool definitions the model sees. They sit first in every request (docs/design.md §3), so their bytes are part
 * of the cached prefix: the text below changes only on purpose, and TOOL_SPECS is sorted by name so the order never
 * depends on how the list was assembled. The numbers quoted come from limits.ts.
 */
import type { WireTool } from '../model/wire'
import {
  BASH_DEFAULT_TIMEOUT_MS,
  BASH_MAX_TIMEOUT_MS,
  GLOB_MAX_RESULTS,
  GREP_MAX_MATCHES,
  READ_DEFAULT_LINE_LIMIT,
  REMEMBER_MAX_FACT_CHARS,
  TODO_MAX_ITEMS,
  TOOL_OUTPUT_MAX_CHARS,
} from './limits'
import { describeIssues, INPUT_SCHEMAS, type ParsedToolCall, type ToolInputs } from './schemas'
import { isReadOnlyAccess, isToolName, TOOL_ACCESS, type ParseResult, type ToolAccess, type ToolName } from './types'

export interface ToolSpec<K extends ToolName = ToolName> {
  readonly name: K
  /** Exactly what goes into the request's `tools` array. */
  readonly wire: WireTool
  readonly access: ToolAccess
  /** Changes nothing in the project, its processes or memory files; allowed in plan mode, never asked about. */
  readonly readOnly: boolean
  /** May run at the same time as other parallel-safe calls of the same pass (reads only). */
  readonly parallelSafe: boolean
  parse(input: unknown): ParseResult<ToolInputs[K]>
}

const str = (description: string) => ({ type: 'string', description })
const int = (description: string, minimum: number, maximum?: number) =>
  maximum === undefined ? { type: 'integer', minimum, description } : { type: 'integer', minimum, maximum, description }
function object(properties: Record<string, unknown>, required: ReadonlyArray<string>): Record<string, unknown> {
  return { type: 'object', properties, required, additionalProperties: false }
}

const PATH = 'Path relative to the project root (absolute paths must lie inside the root).'

const WIRE: { readonly [K in ToolName]: Omit<WireTool, 'name'> } = {
  bash: {
    description:
      `Runs a shell command in the project root and returns its combined stdout and stderr. ` +
      `Stdin is closed, so interactive commands fail instead of waiting. The command and every process it started ` +
      `are stopped when it ends, times out (default ${BASH_DEFAULT_TIMEOUT_MS} ms) or the user interrupts it; ` +
      `nothing keeps running afterwards, so do not start servers in the background. Output beyond ` +
      `${TOOL_OUTPUT_MAX_CHARS} characters keeps its beginning and end, with a note in the middle. Prefer ` +
      `read_file, grep, glob and list_dir for looking at files.`,
    input_schema: object(
      {
        command: str('The command line, run by bash (or sh) with the project root as working directory.'),
        timeout_ms: int(`Milliseconds before the command is stopped (default ${BASH_DEFAULT_TIMEOUT_MS}).`, 1, BASH_MAX_TIMEOUT_MS),
      },
      ['command'],
    ),
  },
  compact: {
    description:
      'Asks for the conversation so far to be compacted into a summary, freeing context. Use it when the history ' +
      'is long and much of it is no longer needed. The summary replaces the older messages from the next request on.',
    input_schema: object(
      {
        upto: str('Compact up to and including this tool call id (toolu_…); by default all but the most recent steps.'),
        focus: str('What the summary must keep in detail.'),
        instructions: str('Further instructions for writing the summary.'),
      },
      [],
    ),
  },
  edit_file: {
    description:
      'Replaces one exact occurrence of old_string with new_string in a file. The file must have been read with ' +
      'read_file in this session and not changed since; old_string must match the file exactly (whitespace ' +
      'included, without read_file line numbers) and occur exactly once: add surrounding lines to make it unique.',
    input_schema: object(
      {
        path: str(PATH),
        old_string: str('The exact text to replace; must occur exactly once in the file.'),
        new_string: str('The replacement text (may be empty to delete old_string).'),
      },
      ['path', 'old_string', 'new_string'],
    ),
  },
  glob: {
    description:
      `Finds files whose paths match a glob pattern (e.g. "src/**/*.ts"), relative to the project root. Files ` +
      `ignored by .gitignore, .git and node_modules are left out. Returns at most ${GLOB_MAX_RESULTS} paths, sorted.`,
    input_schema: object({ pattern: str('Glob pattern relative to the project root.') }, ['pattern']),
  },
  grep: {
    description:
      `Searches file contents for a regular expression, honouring .gitignore, and returns matching lines as ` +
      `path:line:text, sorted by path. Returns at most ${GREP_MAX_MATCHES} matches; narrow with path or glob.`,
    input_schema: object(
      {
        pattern: str('Regular expression (JavaScript / ripgrep syntax), case-sensitive.'),
        path: str('File or folder to search, relative to the project root (default: the whole project).'),
        glob: str('Only search files matching this glob, e.g. "*.ts" (matched against the file name when it has no "/").'),
      },
      ['pattern'],
    ),
  },
  list_dir: {
    description: 'Lists a folder of the project: folders end with "/", symbolic links with "@".',
    input_schema: object({ path: str(`${PATH} Use "." for the root.`) }, ['path']),
  },
  read_file: {
    description:
      `Reads a text file with line numbers ("<n>\\t<text>"). By default the first ${READ_DEFAULT_LINE_LIMIT} lines; ` +
      `use offset and limit for other ranges. Reading a range again while the file is unchanged returns a short ` +
      `note instead of the content, which is already in the conversation.`,
    input_schema: object(
      {
        path: str(PATH),
        offset: int('First line to read, 1-based (default 1).', 1),
        limit: int(`Number of lines to read (default ${READ_DEFAULT_LINE_LIMIT}).`, 1),
      },
      ['path'],
    ),
  },
  remember: {
    description:
      'Saves one durable fact to memory so that later sessions know it: "project" memory (.loupe/memory.md in the ' +
      'project) for facts about this codebase, "user" memory for the user\'s own preferences across projects. ' +
      'Save only what cannot be rediscovered from the files.',
    input_schema: object(
      {
        fact: str(`The fact, one line (at most ${REMEMBER_MAX_FACT_CHARS} characters).`),
        scope: { type: 'string', enum: ['project', 'user'], description: 'Where to save it.' },
      },
      ['fact', 'scope'],
    ),
  },
  skill: {
    description: 'Loads the instructions of a skill listed in the system prompt (.loupe/skills/<name>/SKILL.md).',
    input_schema: object({ name: str('The skill name.') }, ['name']),
  },
  todo_write: {
    description:
      'Replaces the plan for the current task, shown to the user. Send the whole list each time; keep one item ' +
      'in_progress while working on it and mark items done as soon as they are.',
    input_schema: object(
      {
        todos: {
          type: 'array',
          description: 'The whole plan, in order.',
          maxItems: TODO_MAX_ITEMS,
          items: object(
            {
              content: str('What to do.'),
              status: { type: 'string', enum: ['pending', 'in_progress', 'done'] },
            },
            ['content', 'status'],
          ),
        },
      },
      ['todos'],
    ),
  },
  write_file: {
    description:
      'Writes a whole file, creating it and its folders if needed. To change part of an existing file use ' +
      'edit_file; an existing file may only be overwritten after it was read in this session and is unchanged since.',
    input_schema: object({ path: str(PATH), content: str('The complete new content of the file.') }, ['path', 'content']),
  },
}

function makeSpec<K extends ToolName>(name: K): ToolSpec<K> {
  const schema = INPUT_SCHEMAS[name]
  const access = TOOL_ACCESS[name]
  return {
    name,
    wire: { name, ...WIRE[name] },
    access,
    readOnly: isReadOnlyAccess(access),
    parallelSafe: access === 'read',
    parse(input: unknown): ParseResult<ToolInputs[K]> {
      const parsed = schema.safeParse(input)
      return parsed.success
        ? { ok: true, value: parsed.data as ToolInputs[K] }
        : { ok: false, error: describeIssues(parsed.error) }
    },
  }
}

type SpecTable = { readonly [K in ToolName]: ToolSpec<K> }
const SPECS: SpecTable = {
  bash: makeSpec('bash'),
  compact: makeSpec('compact'),
  edit_file: makeSpec('edit_file'),
  glob: makeSpec('glob'),
  grep: makeSpec('grep'),
  list_dir: makeSpec('list_dir'),
  read_file: makeSpec('read_file'),
  remember: makeSpec('remember'),
  skill: makeSpec('skill'),
  todo_write: makeSpec('todo_write'),
  write_file: makeSpec('write_file'),
}

/** Every tool, sorted by name (code-unit order, which is what the prompt builder compares). */
export const TOOL_SPECS: ReadonlyArray<ToolSpec> = (Object.values(SPECS) as ReadonlyArray<ToolSpec>)
  .slice()
  .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))

/** The wire definitions alone, in TOOL_SPECS order, ready for `WireRequest.tools`. */
export const WIRE_TOOLS: ReadonlyArray<WireTool> = TOOL_SPECS.map((spec) => spec.wire)

export function getToolSpec<K extends ToolName>(name: K): ToolSpec<K>
export function getToolSpec(name: string): ToolSpec | undefined
export function getToolSpec(name: string): ToolSpec | undefined {
  return isToolName(name) ? (SPECS[name] as ToolSpec) : undefined
}

/** Validates a call from the model: a known tool and an input its schema accepts. */
export function parseToolCall(name: string, input: unknown): ParseResult<ParsedToolCall> {
  const spec = getToolSpec(name)
  if (spec === undefined) return { ok: false, error: `unknown tool "${name}"` }
  const parsed = spec.parse(input)
  return parsed.ok ? { ok: true, value: { name: spec.name, input: parsed.value } as ParsedToolCall } : parsed
}
