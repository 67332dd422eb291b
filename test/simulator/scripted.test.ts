import { describe, expect, it } from 'vitest'
import { summaryInstruction } from '../../src-main/engine/compaction/summary-instruction'
import { deniedOutcome } from '../../src-main/engine/tools/executor'
import { resolveApproval, type ApprovalRequest, type PermissionDecision } from '../../src-main/engine/tools/permissions'
import { renderUnchangedRead } from '../../src-main/engine/tools/render'
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
    expect(final).toContain('The project root has 3 entries: `README.md`, `src/`, `package.json`.')
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
    // npm's output starts with an empty line: the quoted lines start with the first that says something.
    const npm = turn('run npm test', { bash: () => '\n> demo@1.0.0 test\n> node --test\n\nok 1' })
    expect(npm.final).toContain('```\n> demo@1.0.0 test\n')
    const failed = turn('run `make build`', { bash: () => ({ error: 'exit code 2: make: *** No rule to make target' }) })
    expect(failed.made[0]!.input).toEqual({ command: 'make build' })
    expect(failed.final).toContain('`make build` failed: exit code 2: make: *** No rule to make target')
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

  it('reads a file whose name says todo, instead of making a todo list of the request', () => {
    expect(parseIntent('read src/todo.js and package.json')).toEqual({ kind: 'read', paths: ['src/todo.js', 'package.json'] })
    expect(parseIntent('what does src/todo.js do?')).toEqual({ kind: 'read', paths: ['src/todo.js'] })
    expect(parseIntent('open TODO.md')).toMatchObject({ kind: 'read' })
    // A name without an extension, alone after the verb, is a file too.
    expect(parseIntent('read outside_link')).toEqual({ kind: 'read', paths: ['outside_link'] })
    expect(parseIntent('cat `bin/run`')).toEqual({ kind: 'read', paths: ['bin/run'] })
    expect(parseIntent('read it').kind).not.toBe('read')
    expect(parseIntent('read the docs please').kind).not.toBe('read')
    expect(parseIntent('make a todo list.')).toMatchObject({ kind: 'todo' })
    expect(parseIntent('add it to the to-do: fix lint')).toMatchObject({ kind: 'todo' })
    expect(parseIntent('make a todo-list: fix lint, ship')).toMatchObject({ kind: 'todo' })
  })

  it('counts one entry and one item in the singular', () => {
    expect(turn('list src', { list_dir: () => 'a.ts' }).final).toContain('`src` has 1 entry: `a.ts`.')
    expect(turn('make a todo list: ship it', { todo_write: () => 'ok' }).final).toContain('Todo list updated (1 item).')
  })
})

describe('scripted agent: going on after a stop', () => {
  it('"go on" carries on with the request before it, from the calls already made, not as words it does not know', () => {
    const readme = 'README text'
    // The turn was stopped after the read of README.md was answered, before the agent's answer.
    const stopped: Msg[] = [
      { role: 'user', content: 'read README.md' },
      { role: 'assistant', content: [{ type: 'text', text: "I'll read it." }, { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'README.md' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: readme }] },
      { role: 'assistant', content: [{ type: 'text', text: '`README.md` (1 line)' }] },
    ]
    const { made, final } = turn('go on', { read_file: () => 'read again' }, stopped)
    expect(made).toEqual([])
    expect(final).toContain('`README.md` (1 line) begins:')
    expect(final).toContain(readme)
    expect(final).not.toContain('offline simulator')
    // "Please continue." is the same; "continue with the tests" is a request of its own.
    expect(turn('Please continue.', {}, stopped).final).toContain(readme)
    expect(turn('continue with the tests', {}, stopped).final).toContain('offline simulator')
  })

  it('with nothing before it, "go on" is answered as it stands', () => {
    expect(turn('go on', {}).final).toContain('offline simulator')
  })

  it('stopped before any answer, the request goes with the "go on" in one message, and is what is answered', () => {
    // An earlier turn, answered: not the request the "go on" is about.
    const earlier: Msg[] = [
      { role: 'user', content: 'list the root' },
      { role: 'assistant', content: [{ type: 'text', text: 'The project root has 1 entry: `README.md`.' }] },
    ]
    const blocks = respond([...earlier, { role: 'user', content: [{ type: 'text', text: 'read README.md' }, { type: 'text', text: 'go on' }] }])
    expect(blocks.filter((b) => b.type === 'tool_use')).toEqual([expect.objectContaining({ name: 'read_file', input: { path: 'README.md' } })])
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

  it('reads "this project" and "my folder" as the project root, not as a folder named "this"', () => {
    // A newcomer's likely first message: it used to list a folder called `this`, and the first tool call failed.
    expect(parseIntent('hello, what is in this project?')).toEqual({ kind: 'list', path: '.' })
    expect(parseIntent("what's in my folder")).toEqual({ kind: 'list', path: '.' })
    expect(parseIntent('list this')).toEqual({ kind: 'list', path: '.' })
    expect(parseIntent('what is in this src')).toEqual({ kind: 'list', path: 'src' })
    expect(parseIntent('what is in docs')).toEqual({ kind: 'list', path: 'docs' })
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

  it("carries an earlier compaction's summary into the next one, merged with what came after", () => {
    const first = text(respond([...history, { role: 'user', content: instruction }]))
    const earlier = first.slice(first.indexOf('<summary>') + 10, first.indexOf('</summary>'))
    // The head a compaction leaves opens the next conversation: an app note quoting the summary.
    const after: Msg[] = [
      { role: 'user', content: [{ type: 'text', text: `[Compacted at the user’s request.]\nSummary of the earlier conversation:\n\n${earlier}` }] },
      { role: 'user', content: 'Run the tests again' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_d', name: 'bash', input: { command: 'npm run lint' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_d', content: 'ok' }] },
    ]
    const second = text(respond([...after, { role: 'user', content: instruction.replace('Focus on the parser.', 'Focus on the lint run.') }]))
    // Kept from the first summary: its requests, files, errors, open items, and its focus section.
    expect(second).toContain('"Fix the failing parser test in src/parser.ts"')
    expect(second).toContain('`src/parser.ts` (read)')
    expect(second).toContain('bash: Error: expected 2 got 3')
    expect(second).toContain('Focus: the parser:')
    // And what came after it.
    expect(second).toContain('"Run the tests again"')
    expect(second).toContain('1. Focus: the lint run:')
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

/** The tool_result the loop sends when the user answers Deny (resolveApproval → deniedOutcome), as the app words it. */
function declined(tool: 'edit_file' | 'write_file' | 'bash', reason?: string): string {
  const request: ApprovalRequest = { tool, summary: '', suggestedRules: [], warning: null }
  const { decision } = resolveApproval(request, reason === undefined ? { kind: 'deny' } : { kind: 'deny', reason }, { allow: [], deny: [] })
  return deniedOutcome(decision as Extract<PermissionDecision, { kind: 'deny' }>).content
}

describe('scripted agent: UI review fixes', () => {
  const COUNT_JS = '1\texport const count = (s) => s.split(" ").filter(Boolean).length\n'
  const unchanged = renderUnchangedRead('src/count.js', { startLine: 1, endLine: 1 }, 1)
  /** An earlier turn that read src/count.js and showed its text. */
  const readEarlier: Msg[] = [
    { role: 'user', content: 'read src/count.js' },
    { role: 'assistant', content: [{ type: 'text', text: "I'll read `src/count.js`." }, { type: 'tool_use', id: 'toolu_r', name: 'read_file', input: { path: 'src/count.js' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_r', content: COUNT_JS }] },
    { role: 'assistant', content: [{ type: 'text', text: '`src/count.js` (1 line) begins: …' }] },
  ]
  const replace = 'replace "filter(Boolean)" with "filter((w) => w.length > 0)" in src/count.js'

  it('edits a file read earlier: an "unchanged since your last read" answer is judged on the earlier read', () => {
    const { made, final } = turn(replace, { read_file: () => unchanged, edit_file: () => 'Edited src/count.js at line 1.' }, readEarlier)
    expect(made).toEqual([
      { name: 'read_file', input: { path: 'src/count.js' } },
      { name: 'edit_file', input: { path: 'src/count.js', old_string: 'filter(Boolean)', new_string: 'filter((w) => w.length > 0)' } },
    ])
    expect(final).not.toContain('does not occur')
    expect(final).not.toContain('File unchanged since your last read')
    expect(final).toContain('`src/count.js` was unchanged since I last read it (1 line)')
    expect(final).toContain('Replaced `filter(Boolean)` with `filter((w) => w.length > 0)` in `src/count.js`.')
  })

  it('after an "unchanged" read, still says the text is missing when the earlier read shows it is, and lets the edit tool decide when no earlier read is left', () => {
    const missing = turn('replace "reduce" with "map" in src/count.js', { read_file: () => unchanged }, readEarlier)
    expect(missing.made.map((m) => m.name)).toEqual(['read_file'])
    expect(missing.final).toContain('`reduce` does not occur in `src/count.js`, so I changed nothing.')
    // The earlier read was compacted away: nothing to judge on, so the edit goes ahead and the tool answers.
    const notFound = 'old_string was not found in src/count.js. It must match the file exactly, including whitespace and indentation.'
    const blind = turn(replace, { read_file: () => unchanged, edit_file: () => ({ error: notFound }) }, [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'Hello!' }])
    expect(blind.made.map((m) => m.name)).toEqual(['read_file', 'edit_file'])
    expect(blind.final).toContain('`edit_file` failed: old_string was not found in src/count.js.')
    expect(blind.final).toContain('The edit did not go through, so `src/count.js` is unchanged.')
    expect(blind.final).not.toContain('does not occur')
  })

  it('acknowledges a declined edit and its reason instead of saying the text does not occur', () => {
    const { made, final } = turn('replace "FAIL" with "FAILED" in test.js', { read_file: () => '1\tconsole.log("FAIL")\n', edit_file: () => ({ error: declined('edit_file', 'keep the FAIL marker') }) })
    expect(made.map((m) => m.name)).toEqual(['read_file', 'edit_file'])
    expect(final).toContain('You declined the edit to `test.js` ("keep the FAIL marker"), so I left it as it was.')
    expect(final).not.toContain('does not occur')
    expect(final).not.toContain('failed')
    expect(turn('replace "FAIL" with "FAILED" in test.js', { read_file: () => 'FAIL\n', edit_file: () => ({ error: declined('edit_file') }) }).final).toContain('You declined the edit to `test.js`, so I left it as it was.')
  })

  it('summarises changes made, the open todos and decisions as whole sentences', () => {
    const history: Msg[] = [
      { role: 'user', content: 'replace "FAIL" with "FAILED" in test.js' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'test.js' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1\tconsole.log("FAIL")\n' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'edit_file', input: { path: 'test.js', old_string: 'FAIL', new_string: 'FAILED' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'Edited test.js at line 1.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Edited test.js at line 1.\n\nReplaced `FAIL` with `FAILED` in `test.js`.' }] },
      { role: 'user', content: 'replace "ok" with "OK" in test.js' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'edit_file', input: { path: 'test.js', old_string: 'ok', new_string: 'OK' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: declined('edit_file', 'keep it lower case'), is_error: true }] },
      { role: 'assistant', content: [{ type: 'text', text: 'You declined the edit to `test.js` ("keep it lower case"), so I left it as it was.' }] },
      { role: 'user', content: 'create a file notes.txt with "hello"' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_4', name: 'write_file', input: { path: 'notes.txt', content: 'hello\n' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_4', content: 'Created notes.txt (1 line).' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Wrote `notes.txt` (1 line).' }] },
      { role: 'user', content: 'list the root' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_5', name: 'list_dir', input: { path: '.' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_5', content: 'notes.txt\nsrc/\ntest.js' }] },
      { role: 'assistant', content: [{ type: 'text', text: '`.` has 3 entries: `notes.txt`, `src/`, `test.js`.' }] },
      { role: 'user', content: 'make a todo list: write tests, fix lint, ship it' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_6', name: 'todo_write', input: { todos: [{ content: 'write tests', status: 'done' }, { content: 'fix lint', status: 'in_progress' }, { content: 'ship it', status: 'pending' }] } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_6', content: 'Todo list updated.' }] },
      // A todo_write the tool refused changed nothing: the list above still stands.
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_7', name: 'todo_write', input: { todos: [{ content: '', status: 'pending' }] } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_7', content: 'Invalid input for todo_write: todos[0].content must not be empty', is_error: true }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Todo list updated (3 items).' }] },
    ]
    const instruction = summaryInstruction({ form: 'cut', focus: 'test.js', instructions: null, keptStart: null, keptSteps: 0 })
    const summary = text(respond([...history, { role: 'user', content: instruction }]))
    const section = (title: string) => summary.match(new RegExp(`^\\d+\\. ${title}:\\n((?:   - .*\\n?)*)`, 'm'))?.[1]?.trimEnd().split('\n').map((l) => l.slice(5)) ?? []

    expect(section('Files and code')).toEqual(['`test.js` (read, edited, edit declined)', '`notes.txt` (written)', '`.` (listed)'])
    expect(section('Changes made')).toEqual(['`test.js`: replaced "FAIL" with "FAILED" — Edited test.js at line 1.', '`notes.txt`: written — Created notes.txt (1 line).'])
    expect(section('Open items and next steps')).toEqual(['fix lint (in_progress)', 'ship it (pending)'])
    const decisions = section('Decisions')
    expect(decisions).toContain('The user declined the `edit_file` call on `test.js`: "keep it lower case".')
    for (const line of decisions) {
      expect(line).not.toMatch(/^`[^`]*`$/)
      expect(line).toMatch(/[.!?"]$/)
      expect((line.match(/`/g) ?? []).length % 2).toBe(0)
    }
    expect(decisions.join('\n')).not.toMatch(/`, `|entries: `/)
  })

  it('key terms pair their backticks: no fragments from between two code spans', () => {
    const history: Msg[] = [
      { role: 'user', content: 'list the root' },
      { role: 'assistant', content: [{ type: 'text', text: '`.` has 3 entries: `notes.txt`, `src/`, `test.js`.' }] },
    ]
    const summary = text(respond([...history, { role: 'user', content: 'Summarize the conversation so far.\n1. Key Technical Concepts:\n2. Current Work:' }]))
    expect(summary).toContain('1. Key Technical Concepts:\n   - `notes.txt`\n   - `src/`\n   - `test.js`\n\n2.')
  })

  it('shows the help examples without backslashes', () => {
    const help = text(respond([{ role: 'user', content: 'hello there' }]))
    expect(help).not.toContain('\\')
    expect(help).toContain('- `find "TODO"` or `grep useState src`')
    expect(help).toContain('- `replace "foo" with "bar" in src/app.ts`')
    // What the help offers is what the agent understands.
    expect(parseIntent('find "TODO"')).toEqual({ kind: 'grep', pattern: 'TODO', path: null })
    expect(parseIntent('replace "foo" with "bar" in src/app.ts')).toEqual({ kind: 'edit', oldString: 'foo', newString: 'bar', path: 'src/app.ts' })
  })

  it('counts one written line as "1 line"', () => {
    expect(turn('create a file notes.md with "hello"', { write_file: () => 'Created notes.md (1 line).' }).final).toBe('Wrote `notes.md` (1 line).')
  })
})

describe('scripted agent: what a turn that changed a file or failed says', () => {
  const CALC = '// Simple calculator\nfunction add(a, b) {\n  return a + b\n}\n\nfunction sub(a, b) {\n  return a - b\n}\n'
  const numbered = (text: string) => text.replace(/\n$/, '').split('\n').map((l, i) => `${i + 1}\t${l}`).join('\n')
  const AFTER = CALC.replace('return a + b', 'return b + a')
  const replace = 'replace "return a + b" with "return b + a" in src/calc.js'

  it('after an edit that went through, quotes the file as the edit left it, never as it was before', () => {
    const { final } = turn(replace, { read_file: () => `${numbered(CALC)}\n`, edit_file: () => `Edited src/calc.js at line 3.\n${numbered(AFTER)}` })
    expect(final).not.toContain('return a + b\n')
    expect(final).toContain('I read `src/calc.js` (8 lines) before editing it.')
    expect(final).toContain('Edited src/calc.js at line 3. Around the edit it now reads:\n\n```\n// Simple calculator\nfunction add(a, b) {\n  return b + a\n}')
    expect(final).toContain('Replaced `return a + b` with `return b + a` in `src/calc.js`.')
  })

  it('after an edit that did not go through, still quotes the file as read: it is unchanged', () => {
    const declinedEdit = turn(replace, { read_file: () => `${numbered(CALC)}\n`, edit_file: () => ({ error: declined('edit_file') }) })
    expect(declinedEdit.final).toContain('`src/calc.js` (8 lines) begins:')
    expect(declinedEdit.final).toContain('  return a + b')
  })

  it('sums up a failed command by the line that says what failed, with how it ended, not by a stack location', () => {
    const output = [
      'node:internal/modules/cjs/loader:1210',
      '  throw err;',
      '  ^',
      '',
      "Error: Cannot find module '/tmp/review-proj/missing.js'",
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
      '    at node:internal/main/run_main_module:28:49 {',
      "  code: 'MODULE_NOT_FOUND',",
      '  requireStack: []',
      '}',
      '',
      'Node.js v20.18.1',
      '[exit code 1]',
    ].join('\n')
    const { final } = turn('run `node missing.js`', { bash: () => ({ error: output }) })
    expect(final).toContain("`node missing.js` failed (exit code 1): Error: Cannot find module '/tmp/review-proj/missing.js'")
    expect(final).not.toContain('loader:1210')
    // No line names an error: the last line of the output says how it ended, the tool's note how the command did.
    const tests = turn('run npm test', { bash: () => ({ error: 'PASS a.test.js\nFAIL b.test.js\nTests: 1 failed, 1 passed\n[exit code 1]' }) })
    expect(tests.final).toContain('`npm test` failed (exit code 1): Tests: 1 failed, 1 passed')
    const slow = turn('run npm test', { bash: () => ({ error: 'waiting…\n[timed out after 120000 ms; the command and every process it started were stopped. Pass a larger timeout_ms if it needs longer.]' }) })
    expect(slow.final).toContain('`npm test` failed (timed out after 120000 ms): waiting…')
  })
})
