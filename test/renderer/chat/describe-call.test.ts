/** The one line a tool call shows in the chat: what it runs or reads, for Loupe's tools and Claude Code's. */
import { describe, expect, it } from 'vitest'
import { describeCall } from '../../../src-renderer/features/chat/ToolCall'

describe('describeCall', () => {
  it("names what Loupe's own tools work on", () => {
    expect(describeCall('bash', { command: 'npm test' })).toBe('npm test')
    expect(describeCall('read_file', { path: 'src/a.ts' })).toBe('src/a.ts')
    expect(describeCall('read_file', { path: 'src/a.ts', offset: 120, limit: 50 })).toBe('src/a.ts · lines 120–169')
    expect(describeCall('edit_file', { path: 'src/a.ts', old_string: 'a', new_string: 'b' })).toBe('src/a.ts')
    expect(describeCall('grep', { pattern: 'TODO', path: 'src' })).toBe('TODO in src')
    expect(describeCall('glob', { pattern: '**/*.ts' })).toBe('**/*.ts')
    expect(describeCall('todo_write', { todos: [{}, {}, {}] })).toBe('3 items')
    expect(describeCall('todo_write', { todos: [{}] })).toBe('1 item')
    expect(describeCall('remember', { fact: 'tests use vitest', scope: 'project' })).toBe('tests use vitest')
  })

  it("names what Claude Code's tools work on, as an imported session records them", () => {
    expect(describeCall('Bash', { command: 'mix test', description: 'Run the tests' })).toBe('mix test')
    expect(describeCall('Read', { file_path: '/home/me/app/lib/app.ex' })).toBe('/home/me/app/lib/app.ex')
    expect(describeCall('Read', { file_path: '/a.ex', offset: 10 })).toBe('/a.ex · from line 10')
    expect(describeCall('Write', { file_path: '/a.ex', content: 'x' })).toBe('/a.ex')
    expect(describeCall('Edit', { file_path: '/a.ex', old_string: 'a', new_string: 'b' })).toBe('/a.ex')
    expect(describeCall('MultiEdit', { file_path: '/a.ex', edits: [{}, {}] })).toBe('/a.ex · 2 edits')
    expect(describeCall('Grep', { pattern: 'def start', path: 'lib' })).toBe('def start in lib')
    expect(describeCall('Grep', { pattern: 'def start', glob: '*.ex' })).toBe('def start (*.ex)')
    expect(describeCall('Glob', { pattern: '**/*.ex', path: '/home/me/app' })).toBe('**/*.ex in /home/me/app')
    expect(describeCall('Task', { description: 'Find the router', prompt: '…', subagent_type: 'Explore' })).toBe('Find the router (Explore)')
    expect(describeCall('WebFetch', { url: 'https://hexdocs.pm/phoenix', prompt: 'summarise' })).toBe('https://hexdocs.pm/phoenix')
    expect(describeCall('WebSearch', { query: 'xterm.js scrollback tmux' })).toBe('xterm.js scrollback tmux')
    expect(describeCall('TodoWrite', { todos: [{}, {}] })).toBe('2 items')
    expect(describeCall('NotebookEdit', { notebook_path: '/n.ipynb', new_source: '' })).toBe('/n.ipynb')
    expect(describeCall('ExitPlanMode', { plan: '\n## Plan\n1. do it' })).toBe('## Plan')
  })

  it('reads a multi-line command as one line', () => {
    expect(describeCall('Bash', { command: 'cd app &&\n  mix deps.get\n\tmix test' })).toBe('cd app && mix deps.get mix test')
  })

  it("shows the usual field of a tool it does not know (an MCP server's), and nothing for odd input", () => {
    expect(describeCall('mcp__tidewave__project_eval', { code: 1, url: 'http://localhost:4000' })).toBe('http://localhost:4000')
    expect(describeCall('Unknown', { file_path: '/x' })).toBe('/x')
    expect(describeCall('Bash', null)).toBe('')
    expect(describeCall('Read', 'not an object')).toBe('')
    expect(describeCall('Read', { file_path: 42 })).toBe('')
  })
})
