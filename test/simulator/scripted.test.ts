import { describe, expect, it } from 'vitest'
import type { DraftBlock } from '../../src-main/simulator/responder'
import { createScriptedResponder } from '../../src-main/simulator/scripted/responder'
import { parseIntent } from '../../src-main/simulator/scripted/intent'
import { validateRequest } from '../../src-main/simulator/validate'
import { APP_TOOLS } from './helpers'

type Msg = { role: 'user' | 'assistant'; content: unknown }

function respond(messages: Msg[], extra: Record<string, unknown> = {}): DraftBlock[] {
  const { request, model } = validateRequest({ model: 'claude-sonnet-4-6', max_tokens: 4000, tools: APP_TOOLS, messages, ...extra }, '2026-10-21', false)
  const thinking = request.thinking?.type === 'enabled' || request.thinking?.type === 'adaptive'
  const out = createScriptedResponder().respond({ request, model, thinking, now: 0 })
  if ('then' in out) throw new Error('scripted responder must be synchronous')
  return [...out.content]
}

const calls = (blocks: DraftBlock[]) => blocks.filter((b) => b.type === 'tool_use').map((b) => (b.type === 'tool_use' ? { name: b.name, input: b.input } : null))
const text = (blocks: DraftBlock[]) => blocks.filter((b) => b.type === 'text').map((b) => (b.type === 'text' ? b.text : '')).join('\n')

/** Runs a whole turn: answers each call with `results[name](input)` until the agent answers in text. */
function turn(request: string, results: Record<string, (input: Record<string, unknown>) => string | { error: string }>, first: Msg[] = []): { final: string; made: Array<{ name: string; input: Record<string, unknown> }> } {
  const messages: Msg[] = [...first, { role: 'user', content: request }]
  const made: Array<{ name: string; input: Record<string, unknown> }> = []
  for (let pass = 0; pass < 6; pass++) {
    const blocks = respond(messages)
    const uses = blocks.filter((b): b is Extract<DraftBlock, { type: 'tool_use' }> => b.type === 'tool_use')
    if (uses.length === 0) return { final: text(blocks), made }
    const content = uses.map((u, i) => ({ ...u, id: `toolu_${pass}_${i}` }))
    messages.push({ role: 'assistant', content: [...blocks.filter((b) => b.type === 'text'), ...content.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input }))] })
    messages.push({
      role: 'user',
      content: content.map((c) => {
        made.push({ name: c.name, input: { ...c.input } })
        const r = results[c.name]?.({ ...c.input }) ?? { error: 'no such tool' }
        return typeof r === 'string' ? { type: 'tool_result', tool_use_id: c.id, content: r } : { type: 'tool_result', tool_use_id: c.id, content: r.error, is_error: true }
      }),
    })
  }
  throw new Error('the agent never answered')
}

describe('scripted agent: tool calls for the tools offered', () => {
  it('lists the root, then names what is there', () => {
    const { made, final } = turn('list the root', { list_dir: () => 'README.md\nsrc/\npackage.json' })
    expect(made).toEqual([{ name: 'list_dir', input: { path: '.' } }])
    expect(final).toContain('`.` has 3 entries: `README.md`, `src/`, `package.json`.')
  })

  it('reads a named file and quotes its first lines', () => {
    const { made, final } = turn('What is in src/app.ts?', { read_file: () => 'export const a = 1\nexport const b = 2\n' })
    expect(made).toEqual([{ name: 'read_file', input: { path: 'src/app.ts' } }])
    expect(final).toContain('`src/app.ts` (2 lines) begins:')
    expect(final).toContain('export const a = 1')
  })

  it('reads two files in parallel, or one at a time when parallel calls are off', () => {
    expect(calls(respond([{ role: 'user', content: 'compare a.ts and b.ts' }]))).toHaveLength(2)
    expect(calls(respond([{ role: 'user', content: 'compare a.ts and b.ts' }], { tool_choice: { type: 'auto', disable_parallel_tool_use: true } }))).toHaveLength(1)
  })

  it('greps for a quoted word and counts the matches', () => {
    const { made, final } = turn('find "TODO" in the code', { grep: () => 'src/a.ts:3: // TODO one\nsrc/b.ts:9: // TODO two' })
    expect(made).toEqual([{ name: 'grep', input: { pattern: 'TODO' } }])
    expect(final).toContain('Found 2 matching lines for `TODO`')
  })

  it('reads before an edit, then edits and says what changed', () => {
    const { made, final } = turn('replace "foo" with "bar" in src/x.ts', { read_file: () => 'const foo = 1\n', edit_file: () => 'Replaced 1 occurrence' })
    expect(made).toEqual([
      { name: 'read_file', input: { path: 'src/x.ts' } },
      { name: 'edit_file', input: { path: 'src/x.ts', old_string: 'foo', new_string: 'bar' } },
    ])
    expect(final).toContain('Replaced `foo` with `bar` in `src/x.ts`.')
  })

  it('does not edit when the text is not in the file', () => {
    const { made, final } = turn('replace "zzz" with "bar" in src/x.ts', { read_file: () => 'const foo = 1\n' })
    expect(made.map((m) => m.name)).toEqual(['read_file'])
    expect(final).toContain('does not occur in `src/x.ts`')
  })

  it('runs a command and shows its output, and reports a failure', () => {
    const ok = turn('run npm test', { bash: () => 'PASS  all\nTests: 3 passed' })
    expect(ok.made).toEqual([{ name: 'bash', input: { command: 'npm test' } }])
    expect(ok.final).toContain('Tests: 3 passed')
    const failed = turn('run `make build`', { bash: () => ({ error: 'exit code 2: make: *** No rule to make target' }) })
    expect(failed.made[0]!.input).toEqual({ command: 'make build' })
    expect(failed.final).toContain('`bash` failed: exit code 2')
  })

  it('remembers a fact in the project, or for the user when it is a personal preference', () => {
    expect(turn('remember that the API lives in server/', { remember: () => 'saved' }).made[0]!.input).toEqual({ fact: 'the API lives in server/', scope: 'project' })
    expect(turn('remember I prefer tabs over spaces', { remember: () => 'saved' }).made[0]!.input).toEqual({ fact: 'I prefer tabs over spaces', scope: 'user' })
  })

  it('explores a project: lists the root, reads the README and the manifest, then summarises', () => {
    const { made, final } = turn('explain this project to me', { list_dir: () => 'README.md\npackage.json\nsrc/', read_file: (i) => (i.path === 'README.md' ? '# Loupe\nA coding agent.' : '{ "name": "loupe" }') })
    expect(made.map((m) => `${m.name}:${String(m.input.path)}`)).toEqual(['list_dir:.', 'read_file:README.md', 'read_file:package.json'])
    expect(final).toContain('# Loupe')
  })

  it('uses glob, write_file, todo_write, skill and compact when asked', () => {
    expect(calls(respond([{ role: 'user', content: 'show me files matching src/**/*.ts' }]))[0]).toEqual({ name: 'glob', input: { pattern: 'src/**/*.ts' } })
    expect(calls(respond([{ role: 'user', content: 'create a file notes.md with "hello"' }]))[0]).toEqual({ name: 'write_file', input: { path: 'notes.md', content: 'hello\n' } })
    expect(calls(respond([{ role: 'user', content: 'make a todo list: write tests, fix lint, ship it' }]))[0]!.name).toBe('todo_write')
    expect(calls(respond([{ role: 'user', content: 'use the skill pdf-tools' }]))[0]).toEqual({ name: 'skill', input: { name: 'pdf-tools' } })
    expect(calls(respond([{ role: 'user', content: 'compact the conversation, focus on the parser' }]))[0]).toEqual({ name: 'compact', input: { focus: 'the parser' } })
  })
})

describe('scripted agent: tools, notes, thinking, determinism', () => {
  it('says so when the tool it needs is not offered, and answers in text under tool_choice none', () => {
    const { request, model } = validateRequest({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'run ls' }] }, '2026-10-21', false)
    const out = createScriptedResponder().respond({ request, model, thinking: false, now: 0 })
    expect('content' in out && text([...out.content])).toContain("the `bash` tool isn't available")
    expect(calls(respond([{ role: 'user', content: 'run ls' }], { tool_choice: { type: 'none' } }))).toEqual([])
  })

  it('calls the forced tool even when the words asked for none', () => {
    expect(calls(respond([{ role: 'user', content: 'hello' }], { tool_choice: { type: 'tool', name: 'glob' } }))).toEqual([{ name: 'glob', input: { pattern: '**/*' } }])
  })

  it('skips tagged notes and context: the user words are the last untagged text', () => {
    const blocks = respond([{ role: 'user', content: [{ type: 'text', text: '<context>Project: loupe\nRoot: /p\nREADME.md</context>' }, { type: 'text', text: 'read main.go' }, { type: 'text', text: '<system-reminder>todo: none</system-reminder>' }] }])
    expect(calls(blocks)).toEqual([{ name: 'read_file', input: { path: 'main.go' } }])
  })

  it('skips the app session context and bracketed notes (src-main/engine/prompt)', () => {
    const context = '# Session context\n\nProject: demo\nRoot: /p\n\nTop level of the root (2 entries; folders end with /):\nREADME.md\nsrc/'
    expect(calls(respond([{ role: 'user', content: [{ type: 'text', text: context }, { type: 'text', text: 'list src' }] }]))).toEqual([{ name: 'list_dir', input: { path: 'src' } }])
    const messages: Msg[] = [
      { role: 'user', content: [{ type: 'text', text: context }, { type: 'text', text: 'read a.ts' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1\tconst a = 1\n' }, { type: 'text', text: '[Instructions for src/, which apply to src/a.ts:]\n\nUse tabs.' }] },
    ]
    expect(text(respond(messages))).toContain('const a = 1')
  })

  it('treats tool results followed by a tagged note as the same turn', () => {
    const messages: Msg[] = [
      { role: 'user', content: 'list src' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'list_dir', input: { path: 'src' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts\nb.ts' }, { type: 'text', text: '<system-reminder>memory saved</system-reminder>' }] },
    ]
    expect(text(respond(messages))).toContain('`src` has 2 entries')
  })

  it('thinks first when thinking is on', () => {
    const blocks = respond([{ role: 'user', content: 'list the root' }], { thinking: { type: 'enabled', budget_tokens: 1024 } })
    expect(blocks[0]!.type).toBe('thinking')
  })

  it('gives the same answer to the same request', () => {
    const messages: Msg[] = [{ role: 'user', content: 'explain this project' }]
    expect(respond(messages)).toEqual(respond(messages))
  })

  it('reads intents from the demo vocabulary', () => {
    expect(parseIntent('grep useState src').kind).toBe('grep')
    expect(parseIntent('hello there').kind).toBe('chat')
    expect(parseIntent('what is in docs').kind).toBe('list')
    expect(parseIntent('read e.g. the docs').kind).not.toBe('read')
  })
})

describe('scripted agent: compaction summaries', () => {
  const history: Msg[] = [
    { role: 'user', content: 'Fix the failing parser test in src/parser.ts' },
    { role: 'assistant', content: [{ type: 'text', text: 'Reading the parser.' }, { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'src/parser.ts' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'export function parse() {}' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_b', name: 'bash', input: { command: 'npm test' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_b', content: 'Error: expected 2 got 3', is_error: true }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_c', name: 'todo_write', input: { todos: [{ content: 'fix off-by-one', status: 'pending' }, { content: 'read parser', status: 'done' }] } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_c', content: 'ok' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'The test fails on an off-by-one in `parse`.' }] },
    { role: 'user', content: 'Also rename the module to grammar' },
    { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
  ]
  const instruction = [
    'Your task is to create a detailed summary of the conversation so far. Wrap your reasoning in <analysis> tags, then the summary in <summary> tags.',
    'Focus on the parser.',
    'Sections:',
    '1. Primary Request and Intent: what the user asked',
    '2. Files and Code Sections: files read or changed',
    '3. Errors and fixes:',
    '4. Pending Tasks:',
    '5. Current Work:',
  ].join('\n')

  it('quotes every user request, lists files, commands and errors, open items, with the focus first', () => {
    const out = text(respond([...history, { role: 'user', content: instruction }]))
    expect(out.startsWith('<analysis>\n')).toBe(true)
    expect(out).toMatch(/<\/analysis>\n\n<summary>\n[\s\S]*<\/summary>$/)
    const summary = out.slice(out.indexOf('<summary>'))
    expect(summary.indexOf('1. Focus: the parser')).toBeGreaterThan(0)
    expect(summary).toContain('"Fix the failing parser test in src/parser.ts"')
    expect(summary).toContain('"Also rename the module to grammar"')
    expect(summary).toContain('`src/parser.ts` (read)')
    expect(summary).toContain('bash: Error: expected 2 got 3')
    expect(summary).toContain('fix off-by-one (pending)')
    expect(summary).not.toContain('read parser (done)')
    expect(summary).toContain('3. Files and Code Sections:')
  })

  it('answers a compaction request in text even when tools are offered', () => {
    const blocks = respond([...history, { role: 'user', content: 'Summarize the conversation so far.' }])
    expect(calls(blocks)).toEqual([])
    expect(text(blocks)).toContain('User requests:')
  })
})

describe('scripted agent: the app tool result formats (src-main/engine/tools/render.ts)', () => {
  it('quotes read_file text without its line numbers', () => {
    const { final } = turn('read a.ts', { read_file: () => '1\tconst a = 1\n2\tconst b = 2\n' })
    expect(final).toContain('`a.ts` (2 lines) begins:\n\n```\nconst a = 1\nconst b = 2\n```')
  })

  it('reads an empty folder and a bracketed note in a listing', () => {
    expect(turn('list src', { list_dir: () => 'src is an empty folder.' }).final).toContain('`src` has 0 entries')
    expect(turn('list src', { list_dir: () => 'a.ts\nb/\n[3 more entries not shown. List a subfolder.]' }).final).toContain('`src` has 2 entries: `a.ts`, `b/`.')
  })

  it('escapes a quoted word for grep, which takes a regular expression', () => {
    expect(calls(respond([{ role: 'user', content: 'find "parse(" please' }]))[0]).toEqual({ name: 'grep', input: { pattern: 'parse\\(' } })
  })
})
