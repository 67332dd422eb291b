/**
 * The agent's tools and what each may touch, in a module that imports nothing so that both sides may read it (like
 * money.ts): the engine's tool specs and permission engine take their access from here, and the renderer says from
 * it whether a turn's tool calls could have changed anything (a take-back's fold).
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

export const TOOL_ACCESS: { readonly [K in ToolName]: ToolAccess } = {
  bash: 'exec',
  compact: 'context',
  edit_file: 'write',
  glob: 'read',
  grep: 'read',
  list_dir: 'read',
  read_file: 'read',
  remember: 'memory',
  skill: 'read',
  todo_write: 'plan',
  write_file: 'write',
}

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
    default: {
      const unknown: never = access
      throw new Error(`unknown tool access: ${String(unknown)}`)
    }
  }
}

/** The access of a tool named in a recorded entry, or null for a name this build does not know (an imported session). */
export function toolAccessOf(name: string): ToolAccess | null {
  return isToolName(name) ? TOOL_ACCESS[name] : null
}
