/**
 * The scripted agent's closing text for a turn, grounded in the tool results it got: it quotes the first lines
 * of a file it read, counts matches, shows a command's output, and says plainly when a tool failed or was not
 * offered.
 */
import { listingNames } from './agent'
import type { ToolStep, Turn } from './conversation'
import type { Intent } from './intent'

const QUOTE_LINES = 8
const LIST_NAMES = 20

function fence(text: string): string {
  const body = text.replace(/\s+$/, '')
  const ticks = body.includes('```') ? '````' : '```'
  return `${ticks}\n${body}\n${ticks}`
}

function firstLines(text: string, n: number): string {
  return text.split('\n').slice(0, n).join('\n')
}

/** File text without the `N<tab>` line numbers read_file puts in front of each line. */
function withoutLineNumbers(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n')
  const numbered = lines.filter((l) => /^\d+\t/.test(l)).length
  return numbered > 0 && numbered >= lines.length - 1 ? lines.filter((l) => /^\d+\t/.test(l)).map((l) => l.replace(/^\d+\t/, '')).join('\n') : text
}

function lastLines(text: string, n: number): string {
  return text.replace(/\s+$/, '').split('\n').slice(-n).join('\n')
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? ''
}

function lineCount(text: string): number {
  return text.length === 0 ? 0 : text.replace(/\n$/, '').split('\n').length
}

function pathOf(step: ToolStep): string {
  const p = step.input.path ?? step.input.file_path ?? step.input.filePath
  return typeof p === 'string' ? p : '(unknown path)'
}

function describeStep(step: ToolStep): string {
  const result = step.result ?? ''
  if (step.result === null) return `\`${step.name}\` returned nothing.`
  if (step.isError) return `\`${step.name}\` failed: ${firstLine(result)}`
  switch (step.name) {
    case 'read_file': {
      const body = withoutLineNumbers(result)
      return `\`${pathOf(step)}\` (${lineCount(body)} line${lineCount(body) === 1 ? '' : 's'}) begins:\n\n${fence(firstLines(body, QUOTE_LINES))}`
    }
    case 'list_dir': {
      const names = listingNames(result)
      const shown = names.slice(0, LIST_NAMES).map((n) => `\`${n}\``).join(', ')
      return `\`${String(step.input.path ?? '.')}\` has ${names.length} entries: ${shown}${names.length > LIST_NAMES ? ', …' : ''}.`
    }
    case 'grep': {
      const lines = result.split('\n').filter((l) => l.trim().length > 0 && !l.startsWith('['))
      const pattern = String(step.input.pattern ?? step.input.query ?? '')
      if (lines.length === 0 || /^no (matches|results)/i.test(result.trim())) return `No matches for \`${pattern}\`.`
      return `Found ${lines.length} matching line${lines.length === 1 ? '' : 's'} for \`${pattern}\`:\n\n${fence(lines.slice(0, QUOTE_LINES).join('\n'))}`
    }
    case 'glob': {
      const files = /^no files match/i.test(result.trim()) ? [] : result.split('\n').filter((l) => l.trim().length > 0 && !l.startsWith('['))
      return `${files.length} file${files.length === 1 ? '' : 's'} match \`${String(step.input.pattern ?? '')}\`${files.length > 0 ? `: ${files.slice(0, LIST_NAMES).map((f) => `\`${f.trim()}\``).join(', ')}` : ''}.`
    }
    case 'bash':
      return `\`${String(step.input.command ?? step.input.cmd ?? '')}\` finished. Last lines of its output:\n\n${fence(lastLines(result, 10) || '(no output)')}`
    case 'edit_file':
      // The tool's first line already names the file and the line ("Edited src/cli.ts at line 6.").
      return firstLine(result) || `Edited \`${pathOf(step)}\`.`
    case 'write_file':
      return `Wrote \`${pathOf(step)}\` (${lineCount(String(step.input.content ?? ''))} lines).`
    case 'remember':
      return `Saved to ${String(step.input.scope ?? 'project')} memory: "${String(step.input.fact ?? '')}".`
    case 'todo_write':
      return `Todo list updated (${Array.isArray(step.input.todos) ? step.input.todos.length : 0} items).`
    case 'skill':
      return `Loaded the \`${String(step.input.name ?? '')}\` skill: ${firstLine(result)}`
    case 'compact':
      return `Compaction requested: ${firstLine(result) || 'done'}.`
    default:
      return `\`${step.name}\` returned: ${firstLine(result)}`
  }
}

const HELP = [
  'I am the offline simulator: a scripted stand-in for Claude that needs no API key. Things I understand:',
  '- "list the root" or "list src"',
  '- "read package.json" (up to three files at once)',
  '- "find \\"TODO\\"" or "grep useState src"',
  '- "replace \\"foo\\" with \\"bar\\" in src/app.ts"',
  '- "run npm test"',
  '- "remember that we use pnpm"',
  '- "explain this project"',
].join('\n')

export function finalAnswer(intent: Intent, turn: Turn, missingTool: string | null): string {
  const steps = turn.rounds.flat()
  if (missingTool) return `I can't do that here: the \`${missingTool}\` tool isn't available in this session.`
  if (steps.length === 0) {
    if (intent.kind === 'chat') {
      if (/^\s*(hi|hello|hey|good (morning|afternoon|evening))\b/i.test(turn.request)) return `Hello! ${HELP}`
      return turn.request.length > 0 ? `You asked: "${firstLine(turn.request).slice(0, 200)}"\n\n${HELP}` : HELP
    }
    if (intent.kind === 'edit') return `I couldn't find \`${intent.oldString}\` in \`${intent.path}\`, so I changed nothing.`
    return HELP
  }
  const parts = steps.map(describeStep)
  if (intent.kind === 'edit') {
    const read = steps[0]
    const edited = steps.some((s) => (s.name === 'edit_file') && !s.isError)
    if (!edited && read && !read.isError) parts.push(`\`${intent.oldString}\` does not occur in \`${intent.path}\`, so I changed nothing.`)
    if (edited) parts.push(`Replaced \`${intent.oldString}\` with \`${intent.newString}\` in \`${intent.path}\`.`)
  }
  if (intent.kind === 'explore') parts.unshift('Here is what I found in the project.')
  return parts.join('\n\n')
}
