/** One valid input per tool, shared by the engine and node tool tests. */
import type { ToolName } from '../../../src-main/engine/tools'

export const VALID_INPUTS: { readonly [K in ToolName]: Record<string, unknown> } = {
  bash: { command: 'npm test' },
  compact: { focus: 'the parser work' },
  edit_file: { path: 'src/app.ts', old_string: 'a', new_string: 'b' },
  glob: { pattern: 'src/**/*.ts' },
  grep: { pattern: 'TODO', path: 'src', glob: '*.ts' },
  list_dir: { path: '.' },
  read_file: { path: 'src/app.ts', offset: 1, limit: 10 },
  remember: { fact: 'Tests run with npm test', scope: 'project' },
  skill: { name: 'release' },
  todo_write: { todos: [{ content: 'write the parser', status: 'in_progress' }] },
  write_file: { path: 'src/new.ts', content: 'export {}\n' },
}

export const MUTATING_TOOLS: ReadonlyArray<ToolName> = ['bash', 'edit_file', 'remember', 'write_file']
