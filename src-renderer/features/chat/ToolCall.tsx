import type { EntryView } from '../../../src-preload/contract'

interface ToolUse {
  readonly id: string
  readonly name: string
  readonly input: unknown
}

/** One line that says what a call does: the path, the command, the pattern. */
export function describeCall(name: string, input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>
  const pick = (k: string) => (typeof i[k] === 'string' ? (i[k] as string) : '')
  switch (name) {
    case 'bash':
      return pick('command')
    case 'grep':
      return `${pick('pattern')}${i.path ? ` in ${pick('path')}` : ''}`
    case 'glob':
      return pick('pattern')
    case 'remember':
      return pick('fact')
    case 'skill':
      return pick('name')
    case 'todo_write':
      return `${Array.isArray(i.todos) ? i.todos.length : 0} items`
    default:
      return pick('path')
  }
}

export function ToolCall({ use, result, running }: { use: ToolUse; result: EntryView | undefined; running: boolean }) {
  const outcome = (result?.outcome as string | undefined) ?? (running ? 'running' : 'waiting')
  const isError = result?.isError === true
  const status = result ? (outcome === 'ran' ? (isError ? 'error' : 'done') : outcome) : outcome
  return (
    <details className={`tool-call ${status}`} data-tool={use.name} data-status={status}>
      <summary>
        <span className="tool-name">{use.name}</span>
        <span className="tool-subject">{describeCall(use.name, use.input)}</span>
        <span className={`tool-status ${status}`}>{status}</span>
      </summary>
      <div className="tool-body">
        <div className="tool-label">input</div>
        <pre>{JSON.stringify(use.input, null, 2)}</pre>
        {result && (
          <>
            <div className="tool-label">result</div>
            <pre className={isError ? 'tool-result error' : 'tool-result'}>{String(result.content ?? '')}</pre>
          </>
        )}
      </div>
    </details>
  )
}
