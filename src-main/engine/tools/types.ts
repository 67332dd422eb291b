/**
 * The words shared by every tool module: tool names, what each kind of tool may touch, and the facts a tool call
 * leaves behind (effects). Pure data; no behaviour here.
 */

/** Every tool the agent can call, in the order the API receives them (sorted by name; docs/design.md §3). */
export const TOOL_NAMES = [
  'bash',
  'compact',
  'edit_file',
  'glob',
  'grep',
  'list_dir',
  'read_file',
  'remember',
  'skill',
  'todo_write',
  'write_file',
] as const
export type ToolName = (typeof TOOL_NAMES)[number]

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as ReadonlyArray<string>).includes(name)
}

/**
 * What a tool may touch. Drives the permission engine (plan mode denies everything that is not read-only) and the
 * loop's scheduling (only `read` calls may run together).
 * - read: reads project files, changes nothing.
 * - plan: changes only the session's plan (todo_write).
 * - context: changes only what the model sees next (compact; run by the compaction layer).
 * - write: changes project files.
 * - exec: runs a command, which can change anything the user can.
 * - memory: appends to a memory file (project or user).
 */
export type ToolAccess = 'read' | 'plan' | 'context' | 'write' | 'exec' | 'memory'

export function isReadOnlyAccess(access: ToolAccess): boolean {
  switch (access) {
    case 'read':
    case 'plan':
    case 'context':
      return true
    case 'write':
    case 'exec':
    case 'memory':
      return false
    default:
      return assertNever(access)
  }
}

/** Lines of a file as shown to the model: 1-based, inclusive. `endLine < startLine` means nothing was shown. */
export interface LineRange {
  readonly startLine: number
  readonly endLine: number
}

export type TodoStatus = 'pending' | 'in_progress' | 'done'
export interface Todo {
  readonly content: string
  readonly status: TodoStatus
}

export type MemoryScope = 'project' | 'user'

/**
 * A durable fact left by a successful tool call. The loop folds effects into the session's tool state
 * (`applyToolEffects`) in call order, so parallel reads never race on shared state, and the state can be rebuilt
 * from recorded effects when a session is reopened. Paths are relative to the project root, with `/` separators.
 */
export type ToolEffect =
  | {
      readonly type: 'file_read'
      readonly path: string
      /**
       * sha256 of the whole file's bytes when it was read; for a file over READ_MAX_FILE_BYTES, read by a range and
       * never whole, `stat:<size>:<mtime in ns>:<inode>`.
       */
      readonly fingerprint: string
      readonly range: LineRange
      /** Lines in the file; for a large file whose count stopped (READ_RANGE_COUNT_MAX_BYTES), the lines counted. */
      readonly totalLines: number
    }
  | { readonly type: 'file_written'; readonly path: string; readonly fingerprint: string; readonly created: boolean }
  | { readonly type: 'memory_saved'; readonly scope: MemoryScope; readonly fact: string; readonly file: string }
  | { readonly type: 'todos_updated'; readonly todos: ReadonlyArray<Todo> }
  | { readonly type: 'skill_loaded'; readonly name: string; readonly path: string }

export type ParseResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string }

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`)
}
