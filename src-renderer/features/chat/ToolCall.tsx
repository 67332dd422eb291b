import { ChangePreviewSchema, type EntryView } from '../../../src-preload/contract'
import { useMemo } from 'react'
import { ChangePreview } from './ChangePreview'
import { deniedResultParts } from './denied-result'
import { SentenceParts } from '../../ui/Isolated'

interface ToolUse {
  readonly id: string
  readonly name: string
  readonly input: unknown
}

type Input = Readonly<Record<string, unknown>>

const text = (v: unknown): string => (typeof v === 'string' ? v : '')
const count = (v: unknown, what: string): string => (Array.isArray(v) ? `${v.length} ${what}${v.length === 1 ? '' : 's'}` : '')
/** "pattern in path", or the pattern alone. */
const inPath = (pattern: unknown, path: unknown): string => (text(path) ? `${text(pattern)} in ${text(path)}` : text(pattern))
/** A file read from a line on: "a.ts · lines 120–169". */
function lines(path: unknown, offset: unknown, limit: unknown): string {
  const from = typeof offset === 'number' ? offset : null
  const n = typeof limit === 'number' ? limit : null
  const range = from !== null && n !== null ? `lines ${from}–${from + n - 1}` : from !== null ? `from line ${from}` : n !== null ? `first ${n} lines` : ''
  return range ? `${text(path)} · ${range}` : text(path)
}

/**
 * What the one line of a call shows, by tool name: Loupe's own tools (lower-case, `path`) and Claude Code's, whose
 * calls an imported session shows (`Bash`, `Read` with `file_path`, `Task` …).
 */
const SUBJECTS: Readonly<Record<string, (i: Input) => string>> = {
  // Loupe (src-main/engine/tools/schemas.ts)
  bash: (i) => text(i.command),
  grep: (i) => inPath(i.pattern, i.path),
  glob: (i) => text(i.pattern),
  read_file: (i) => lines(i.path, i.offset, i.limit),
  remember: (i) => text(i.fact),
  skill: (i) => text(i.name),
  todo_write: (i) => count(i.todos, 'item'),
  compact: (i) => text(i.focus) || text(i.upto),
  // Claude Code
  Bash: (i) => text(i.command),
  BashOutput: (i) => text(i.bash_id),
  KillShell: (i) => text(i.shell_id),
  KillBash: (i) => text(i.shell_id),
  Read: (i) => lines(i.file_path, i.offset, i.limit),
  Write: (i) => text(i.file_path),
  Edit: (i) => text(i.file_path),
  MultiEdit: (i) => [text(i.file_path), count(i.edits, 'edit')].filter(Boolean).join(' · '),
  NotebookEdit: (i) => text(i.notebook_path),
  NotebookRead: (i) => text(i.notebook_path),
  Grep: (i) => inPath(i.pattern, i.path) + (text(i.glob) ? ` (${text(i.glob)})` : ''),
  Glob: (i) => inPath(i.pattern, i.path),
  LS: (i) => text(i.path),
  Task: (i) => text(i.description) + (text(i.subagent_type) ? ` (${text(i.subagent_type)})` : ''),
  Agent: (i) => text(i.description) + (text(i.subagent_type) ? ` (${text(i.subagent_type)})` : ''),
  WebFetch: (i) => text(i.url),
  WebSearch: (i) => text(i.query),
  TodoWrite: (i) => count(i.todos, 'item'),
  Skill: (i) => text(i.skill) || text(i.command),
  SlashCommand: (i) => text(i.command),
  ExitPlanMode: (i) => text(i.plan).split('\n').find((l) => l.trim() !== '') ?? '',
}

/** Fields that name what a tool we do not know works on, in the order they are tried. */
const USUAL_FIELDS = ['path', 'file_path', 'command', 'pattern', 'url', 'query', 'description', 'name']

/**
 * One line that says what a call does: the command, the path, the pattern. Whitespace runs become one space (a
 * multi-line command reads as one line; the call's input below it has the original).
 */
export function describeCall(name: string, input: unknown): string {
  const i: Input = input !== null && typeof input === 'object' ? (input as Input) : {}
  const known = SUBJECTS[name]
  const subject = known ? known(i) : (USUAL_FIELDS.map((k) => text(i[k])).find((v) => v !== '') ?? '')
  return subject.replace(/\s+/g, ' ').trim()
}

/**
 * A call without a result yet is running, or waiting (for an approval, or for the calls before it) while its turn
 * runs. `recorded`: the conversation is a record Loupe did not run (an imported transcript): a call without a result
 * was never answered there, and nothing will answer it now. `turnRunning`: false when the page knows of no turn
 * running (the connection was lost, or the host stopped mid-turn): nothing is waiting then, the call simply has no
 * result, and "waiting" would promise one.
 * `tabbable`: false keeps the call out of the Tab order (its message is not the conversation's Tab stop).
 */
export function ToolCall({
  use,
  result,
  running,
  recorded = false,
  turnRunning = true,
  tabbable = true,
}: {
  use: ToolUse
  result: EntryView | undefined
  running: boolean
  recorded?: boolean
  turnRunning?: boolean
  tabbable?: boolean
}) {
  const outcome = (result?.outcome as string | undefined) ?? (running ? 'running' : recorded ? 'unanswered' : turnRunning ? 'waiting' : 'no-result')
  const isError = result?.isError === true
  const status = result ? (outcome === 'ran' ? (isError ? 'error' : 'done') : outcome) : outcome
  const subject = describeCall(use.name, use.input)
  // Checked, not cast: a session imported from an export file may carry anything here.
  const change = useMemo(() => {
    const parsed = ChangePreviewSchema.safeParse(result?.change)
    return parsed.success ? parsed.data : null
  }, [result?.change])
  return (
    <details className={`tool-call ${status}`} data-tool={use.name} data-status={status}>
      <summary tabIndex={tabbable ? undefined : -1}>
        <span className="tool-name">{use.name}</span>
        <span className="tool-subject" title={subject || undefined}>
          {subject}
        </span>
        {/* Refused by the session's rules, not by the user: the rule's first sentence says which ("Plan mode is read-only, …"). */}
        <span className={`tool-status ${status}`} title={status === 'blocked' ? firstSentence(String(result?.content ?? '')) : undefined}>
          {status.replace('-', ' ')}
        </span>
      </summary>
      <div className="tool-body">
        {change ? (
          <>
            {/* What the call changed, as the host recorded it; the input's escaped JSON stays one click away. */}
            <ChangePreview preview={change} />
            <details className="tool-input">
              <summary>input</summary>
              <pre>{JSON.stringify(use.input, null, 2)}</pre>
            </details>
          </>
        ) : (
          <>
            <div className="tool-label">input</div>
            <pre>{JSON.stringify(use.input, null, 2)}</pre>
          </>
        )}
        {result && (
          <>
            <div className="tool-label">result</div>
            {/* A refused call's: the reason the user typed, or a deny rule's words, set apart from the engine's. */}
            <pre className={isError ? 'tool-result error' : 'tool-result'}>{outcome === 'denied' || outcome === 'blocked' ? <SentenceParts parts={deniedResultParts(String(result.content ?? ''))} /> : String(result.content ?? '')}</pre>
          </>
        )}
      </div>
    </details>
  )
}

/** The text up to its first full stop followed by a space, or its first line. */
function firstSentence(text: string): string {
  const line = text.split('\n', 1)[0] ?? ''
  const end = line.search(/[.!?](?:\s|$)/)
  return end === -1 ? line : line.slice(0, end + 1)
}
