/**
 * The scripted agent's closing text for a turn, grounded in the tool results it got: it quotes the first lines
 * of a file it read (or, when it then edited the file, the lines the edit left), counts matches, shows a command's
 * output, and says plainly when a tool failed (a command by the line of its output that says what failed) or was
 * not offered.
 */
import { fileHolds, listingNames } from './agent'
import { declinedReason, isUnchangedRead, readContent, stepPath, withoutLineNumbers, type ToolStep, type Turn } from './conversation'
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

/** The last `n` lines, without the blank ones it would start with (npm prints an empty line before its own). */
function lastLines(text: string, n: number): string {
  const lines = text.replace(/\s+$/, '').split('\n').slice(-n)
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift()
  return lines.join('\n')
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? ''
}

/**
 * A failed command's output summed up: the first line that names an error (not a stack frame), else the last line of
 * output; the tool's own bracketed notes ("[exit code 1]", a cut) are not output. A stack location such as Node's
 * `node:internal/modules/cjs/loader:1210`, which opens many failures, says nothing of what failed.
 */
function failureLine(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^\[.*\]$/.test(l))
  return lines.find((l) => /error/i.test(l) && !/^at\s/.test(l)) ?? lines.at(-1) ?? ''
}

/** How a command ended, from the tool's closing note ("exit code 1", "killed by SIGTERM", "timed out after 120000 ms"). */
function commandEnd(output: string): string | null {
  const note = /\[((?:exit code|killed by|timed out|interrupted)[^\]]*)\]\s*$/.exec(output)
  return note ? note[1]!.split(/[;.]/)[0]!.trim() : null
}

function lineCount(text: string): number {
  return text.length === 0 ? 0 : text.replace(/\n$/, '').split('\n').length
}

function pathOf(step: ToolStep): string {
  const p = step.input.path ?? step.input.file_path ?? step.input.filePath
  return typeof p === 'string' ? p : '(unknown path)'
}

/** What the user declined, said back to them with their reason and what that left undone. */
function describeDeclined(step: ToolStep, reason: string): string {
  const why = reason === '' ? '' : ` ("${reason}")`
  switch (step.name) {
    case 'edit_file':
      return `You declined the edit to \`${pathOf(step)}\`${why}, so I left it as it was.`
    case 'write_file':
      return `You declined writing \`${pathOf(step)}\`${why}, so I did not write it.`
    case 'bash':
      return `You declined running \`${String(step.input.command ?? step.input.cmd ?? '')}\`${why}, so I did not run it.`
    default:
      return `You declined the \`${step.name}\` call${why}, so I did not make it.`
  }
}

/** An edit that went through: it ran, was neither refused nor declined. */
function editWent(step: ToolStep): boolean {
  return step.name === 'edit_file' && step.result !== null && !step.isError && declinedReason(step) === null
}

/** `editedAfter`: a later step of the turn edited the file this one read, so its text as read is no longer the file's. */
function describeStep(step: ToolStep, turn: Turn, editedAfter = false): string {
  const result = step.result ?? ''
  if (step.result === null) return `\`${step.name}\` returned nothing.`
  const declined = declinedReason(step)
  if (declined !== null) return describeDeclined(step, declined)
  if (step.isError && step.name === 'bash') {
    const end = commandEnd(result)
    return `\`${String(step.input.command ?? step.input.cmd ?? '')}\` failed${end ? ` (${end})` : ''}: ${failureLine(result) || 'no output'}`
  }
  if (step.isError) return `\`${step.name}\` failed: ${firstLine(result)}`
  switch (step.name) {
    case 'read_file': {
      // An "unchanged since your last read" answer is quoted from the earlier read it points to, when that is still here.
      const content = readContent(turn, step)
      if (content === null) return `\`${pathOf(step)}\` was unchanged since I last read it; its content is earlier in this conversation.`
      const body = withoutLineNumbers(content)
      const lines = `${lineCount(body)} line${lineCount(body) === 1 ? '' : 's'}`
      // Edited afterwards: the text as read is the file before the edit, which the edit's own lines replace below.
      if (editedAfter) return isUnchangedRead(step) ? `\`${pathOf(step)}\` was unchanged since I last read it (${lines}).` : `I read \`${pathOf(step)}\` (${lines}) before editing it.`
      const opening = isUnchangedRead(step) ? `\`${pathOf(step)}\` was unchanged since I last read it (${lines}). It begins:` : `\`${pathOf(step)}\` (${lines}) begins:`
      return `${opening}\n\n${fence(firstLines(body, QUOTE_LINES))}`
    }
    case 'list_dir': {
      const names = listingNames(result)
      const shown = names.slice(0, LIST_NAMES).map((n) => `\`${n}\``).join(', ')
      const path = String(step.input.path ?? '.')
      // "`.` has 3 entries" reads as punctuation: the root is named as what it is.
      const where = path === '.' || path === './' || path === '' ? 'The project root' : `\`${path}\``
      return `${where} has ${names.length} ${names.length === 1 ? 'entry' : 'entries'}: ${shown}${names.length > LIST_NAMES ? ', …' : ''}.`
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
    case 'edit_file': {
      // The tool's first line already names the file and the line ("Edited src/cli.ts at line 6."); the numbered
      // lines after it are the file around the edit as the edit left it.
      const [head = '', ...rest] = result.replace(/\s+$/, '').split('\n')
      const after = withoutLineNumbers(rest.join('\n'))
      const said = head.trim() || `Edited \`${pathOf(step)}\`.`
      return rest.length > 0 && after.trim() !== '' ? `${said} Around the edit it now reads:\n\n${fence(after)}` : said
    }
    case 'write_file': {
      const n = lineCount(String(step.input.content ?? ''))
      return `Wrote \`${pathOf(step)}\` (${n} line${n === 1 ? '' : 's'}).`
    }
    case 'remember':
      return `Saved to ${String(step.input.scope ?? 'project')} memory: "${String(step.input.fact ?? '')}".`
    case 'todo_write': {
      const n = Array.isArray(step.input.todos) ? step.input.todos.length : 0
      return `Todo list updated (${n} item${n === 1 ? '' : 's'}).`
    }
    case 'skill':
      return `Loaded the \`${String(step.input.name ?? '')}\` skill: ${firstLine(result)}`
    case 'compact':
      return `Compaction requested: ${firstLine(result) || 'done'}.`
    default:
      return `\`${step.name}\` returned: ${firstLine(result)}`
  }
}

// Examples as code spans: two of them hold quotes of their own, which nested double quotes would garble.
const HELP = [
  'I am the offline simulator: a scripted stand-in for Claude that needs no API key. Things I understand:',
  '- `list the root` or `list src`',
  '- `read package.json` (up to three files at once)',
  '- `find "TODO"` or `grep useState src`',
  '- `replace "foo" with "bar" in src/app.ts`',
  '- `run npm test`',
  '- `remember that we use pnpm`',
  '- `explain this project`',
  '- `go on` after a Stop',
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
  const parts = steps.map((step, i) => describeStep(step, turn, step.name === 'read_file' && steps.slice(i + 1).some((later) => editWent(later) && stepPath(later) === stepPath(step))))
  if (intent.kind === 'edit') {
    const read = steps.find((s) => s.name === 'read_file')
    const edit = steps.find((s) => s.name === 'edit_file')
    if (edit === undefined) {
      // No edit was tried: the text is not in the file as read (a declined or failed edit is described above).
      if (read && fileHolds(turn, read, intent.oldString) === false) parts.push(`\`${intent.oldString}\` does not occur in \`${intent.path}\`, so I changed nothing.`)
      else if (read && !read.isError && !turn.tools.has('edit_file')) parts.push(`I can't make the change here: the \`edit_file\` tool isn't available in this session.`)
    } else if (!edit.isError) parts.push(`Replaced \`${intent.oldString}\` with \`${intent.newString}\` in \`${intent.path}\`.`)
    else if (declinedReason(edit) === null) parts.push(`The edit did not go through, so \`${intent.path}\` is unchanged.`)
  }
  if (intent.kind === 'explore') parts.unshift('Here is what I found in the project.')
  return parts.join('\n\n')
}
