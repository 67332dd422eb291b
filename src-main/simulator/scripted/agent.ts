/**
 * The scripted agent's next move: which tools to call now, given what the user asked and the calls already
 * answered in this turn, or `final` when it is time to answer in text. Tools are used only when the request
 * offers them, with the argument names their schemas declare.
 */
import { readContent, withoutLineNumbers, type OfferedTool, type ToolStep, type Turn } from './conversation'
import type { Intent } from './intent'

export interface PlannedCall {
  readonly name: string
  readonly input: Readonly<Record<string, unknown>>
}

export type Move =
  | { readonly kind: 'call'; readonly intro: string; readonly calls: ReadonlyArray<PlannedCall> }
  | { readonly kind: 'final' }

/** Other spellings a schema may use for the arguments the agent means. */
const SYNONYMS: Readonly<Record<string, ReadonlyArray<string>>> = {
  path: ['path', 'file_path', 'filePath', 'file', 'dir', 'directory'],
  pattern: ['pattern', 'query', 'regex', 'glob'],
  command: ['command', 'cmd'],
  old_string: ['old_string', 'oldString', 'old'],
  new_string: ['new_string', 'newString', 'new'],
  content: ['content', 'contents', 'text'],
}

/** Renames the wanted arguments to the schema's names and drops what the schema does not declare. */
export function fitInput(tool: OfferedTool, wanted: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (tool.properties.length === 0) return { ...wanted }
  const input: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(wanted)) {
    const name = (SYNONYMS[key] ?? [key]).find((candidate) => tool.properties.includes(candidate))
    if (name !== undefined) input[name] = value
  }
  for (const required of tool.required) if (!(required in input)) input[required] = ''
  return input
}

function call(turn: Turn, name: string, wanted: Readonly<Record<string, unknown>>): PlannedCall | null {
  const tool = turn.tools.get(name)
  return tool ? { name, input: fitInput(tool, wanted) } : null
}

function move(intro: string, calls: ReadonlyArray<PlannedCall | null>): Move {
  const present = calls.filter((c): c is PlannedCall => c !== null)
  return present.length > 0 ? { kind: 'call', intro, calls: present } : { kind: 'final' }
}

const README = /^readme(\.[a-z]+)?$/i

/** Entry names from a list_dir result: one per line, trailing slash or decorations dropped. */
export function listingNames(result: string): string[] {
  if (/ is an empty folder\.$/.test(result.trim())) return []
  return result
    .split('\n')
    .map((line) => line.trim().replace(/^[-*]\s+/, '').replace(/\s+\(.*\)$/, ''))
    .filter((line) => line.length > 0 && !line.endsWith(':') && !line.startsWith('['))
}

function lastStep(turn: Turn): ToolStep | undefined {
  return turn.rounds[turn.rounds.length - 1]?.[0]
}

/** read_file's note under a read that stopped before the end of the file (renderReadResult, engine/tools/render.ts). */
const PARTIAL_READ = /\[Lines \d+–\d+ of \d+ shown\./

/**
 * Whether the file holds `text`, as far as the agent has seen it: true, false, or null when it cannot tell. A read
 * answered "unchanged since your last read" is judged on the earlier read it points to; when that read is no longer
 * in the conversation, or only part of the file was shown, the agent cannot tell and lets edit_file decide.
 */
export function fileHolds(turn: Turn, read: ToolStep, text: string): boolean | null {
  const content = readContent(turn, read)
  if (content === null) return null
  if (content.includes(text) || withoutLineNumbers(content).includes(text)) return true
  return PARTIAL_READ.test(content) ? null : false
}

export function nextMove(intent: Intent, turn: Turn): Move {
  const round = turn.rounds.length
  switch (intent.kind) {
    case 'summary':
    case 'chat':
      return { kind: 'final' }
    case 'remember':
      return round === 0 ? move('I\'ll remember that.', [call(turn, 'remember', { fact: intent.fact, scope: intent.scope })]) : { kind: 'final' }
    case 'edit': {
      if (round === 0) return move(`I'll open \`${intent.path}\` first, then make the change.`, [call(turn, 'read_file', { path: intent.path }) ?? call(turn, 'edit_file', { path: intent.path, old_string: intent.oldString, new_string: intent.newString })])
      const read = lastStep(turn)
      if (round === 1 && read?.name === 'read_file' && !read.isError && fileHolds(turn, read, intent.oldString) !== false) {
        return move(`Now replacing \`${intent.oldString}\` with \`${intent.newString}\`.`, [call(turn, 'edit_file', { path: intent.path, old_string: intent.oldString, new_string: intent.newString })])
      }
      return { kind: 'final' }
    }
    case 'write':
      return round === 0 ? move(`I'll create \`${intent.path}\`.`, [call(turn, 'write_file', { path: intent.path, content: intent.content })]) : { kind: 'final' }
    case 'run':
      return round === 0 ? move(`Running \`${intent.command}\`.`, [call(turn, 'bash', { command: intent.command })]) : { kind: 'final' }
    case 'grep':
      return round === 0 ? move(`Searching for \`${intent.pattern}\`.`, [call(turn, 'grep', intent.path ? { pattern: intent.pattern, path: intent.path } : { pattern: intent.pattern })]) : { kind: 'final' }
    case 'glob':
      return round === 0 ? move(`Looking for files matching \`${intent.pattern}\`.`, [call(turn, 'glob', { pattern: intent.pattern })]) : { kind: 'final' }
    case 'read':
      return round === 0 ? move(`I'll read ${intent.paths.map((p) => `\`${p}\``).join(' and ')}.`, intent.paths.map((path) => call(turn, 'read_file', { path }))) : { kind: 'final' }
    case 'list':
      return round === 0 ? move(intent.path === '.' ? 'Let me look at the project root.' : `Let me list \`${intent.path}\`.`, [call(turn, 'list_dir', { path: intent.path })]) : { kind: 'final' }
    case 'explore': {
      if (round === 0) return move('Let me look around the project first.', [call(turn, 'list_dir', { path: '.' })])
      const listing = lastStep(turn)
      if (round === 1 && listing?.name === 'list_dir' && !listing.isError) {
        const readme = listingNames(listing.result ?? '').find((name) => README.test(name))
        const manifest = listingNames(listing.result ?? '').find((name) => /^(package\.json|pyproject\.toml|Cargo\.toml|go\.mod)$/.test(name))
        const wanted = [readme, manifest].filter((p): p is string => p !== undefined)
        if (wanted.length > 0) return move(`Reading ${wanted.map((p) => `\`${p}\``).join(' and ')}.`, wanted.map((path) => call(turn, 'read_file', { path })))
      }
      return { kind: 'final' }
    }
    case 'todo':
      return round === 0 ? move('Here is the plan as a todo list.', [call(turn, 'todo_write', { todos: intent.items.map((content, i) => ({ content, status: i === 0 ? 'in_progress' : 'pending' })) })]) : { kind: 'final' }
    case 'skill':
      return round === 0 ? move(`Loading the \`${intent.name}\` skill.`, [call(turn, 'skill', { name: intent.name })]) : { kind: 'final' }
    case 'compact':
      return round === 0 ? move('Compacting the conversation.', [call(turn, 'compact', intent.focus ? { focus: intent.focus } : {})]) : { kind: 'final' }
  }
}

/** A call for a forced tool_choice when the intent needed none: the gentlest useful input for that tool. */
export function forcedCall(turn: Turn, name: string | null): PlannedCall | null {
  const preferred = name ?? (turn.tools.has('list_dir') ? 'list_dir' : [...turn.tools.keys()][0])
  if (preferred === undefined) return null
  const defaults: Record<string, Record<string, unknown>> = {
    list_dir: { path: '.' },
    read_file: { path: 'README.md' },
    glob: { pattern: '**/*' },
    grep: { pattern: 'TODO' },
    bash: { command: 'ls' },
  }
  return call(turn, preferred, defaults[preferred] ?? {})
}
