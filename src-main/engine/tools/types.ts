/**
 * The words shared by every tool module: tool names, what each kind of tool may touch, and the facts a tool call
 * leaves behind (effects). Pure data; no behaviour here.
 */

// The tool names and their access live in a leaf both sides read (the renderer says from it what a turn could
// have changed); the engine's modules keep importing them from here.
import { TOOL_NAMES, TOOL_ACCESS, isToolName, isReadOnlyAccess, type ToolName, type ToolAccess } from '../../../src-preload/tool-access'
export { TOOL_NAMES, TOOL_ACCESS, isToolName, isReadOnlyAccess, type ToolName, type ToolAccess }

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
