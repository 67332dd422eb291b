/** A message's markup as data: Markdown in answers, Claude Code's tags in an imported session's user messages. */
import { describe, expect, it } from 'vitest'
import { onlyClaudeCodeMarkup, parseInline, parseMarkdown, parseUserText, stripAnsi } from '../../../src-renderer/features/chat/markup'

const t = (text: string) => ({ kind: 'text', text })

describe('parseInline', () => {
  it('reads bold, italic, inline code and links', () => {
    expect(parseInline('a **bold** b')).toEqual([t('a '), { kind: 'strong', children: [t('bold')] }, t(' b')])
    expect(parseInline('__bold__ and _it_')).toEqual([{ kind: 'strong', children: [t('bold')] }, t(' and '), { kind: 'em', children: [t('it')] }])
    expect(parseInline('an *italic* word')).toEqual([t('an '), { kind: 'em', children: [t('italic')] }, t(' word')])
    expect(parseInline('run `npm test`')).toEqual([t('run '), { kind: 'code', text: 'npm test' }])
    expect(parseInline('see [the docs](https://x.dev/a)')).toEqual([t('see '), { kind: 'link', href: 'https://x.dev/a', children: [t('the docs')] }])
  })

  it('nests: code and italic inside bold', () => {
    expect(parseInline('**use `x` *now* please**')).toEqual([{ kind: 'strong', children: [t('use '), { kind: 'code', text: 'x' }, t(' '), { kind: 'em', children: [t('now')] }, t(' please')] }])
  })

  it('leaves what is not emphasis as written', () => {
    for (const text of ['snake_case_name and __init__.py', '2 * 3 * 4', '* a list item', '**not closed', 'a ** b ** c', 'price: $5 *', 'path/to/*.ts']) {
      expect(parseInline(text)).toEqual([t(text)])
    }
  })

  it('keeps markup inside inline code literal, and reads backslash escapes', () => {
    expect(parseInline('`**x**`')).toEqual([{ kind: 'code', text: '**x**' }])
    expect(parseInline('\\*not italic\\*')).toEqual([t('*not italic*')])
  })

  it('never joins emphasis across lines', () => {
    expect(parseInline('**a\nb**')).toEqual([t('**a\nb**')])
  })

  it('keeps text that looks like HTML as text', () => {
    expect(parseInline('<img src=x onerror=alert(1)> **b**')).toEqual([t('<img src=x onerror=alert(1)> '), { kind: 'strong', children: [t('b')] }])
  })
})

describe('parseMarkdown', () => {
  it('splits out fenced code blocks, with their language, and drops the line breaks around a block (it stands on its own lines)', () => {
    expect(parseMarkdown('Run:\n```sh\nnpm **test**\n```\nthen **look**.')).toEqual([
      t('Run:'),
      { kind: 'code_block', lang: 'sh', text: 'npm **test**' },
      t('then '),
      { kind: 'strong', children: [t('look')] },
      t('.'),
    ])
  })

  it("drops the blank lines around a block too: its margin is the gap, one paragraph's, with or without them", () => {
    const block = { kind: 'code_block', lang: null, text: 'x' }
    expect(parseMarkdown('Run:\n\n```\nx\n```\n\nDone.')).toEqual([t('Run:'), block, t('Done.')])
    expect(parseMarkdown('Run:\n \n\n```\nx\n```\n\n\nDone.')).toEqual([t('Run:'), block, t('Done.')])
    // Two blocks with only blank lines between them are two blocks, nothing between.
    expect(parseMarkdown('```\nx\n```\n\n```\nx\n```')).toEqual([block, block])
    // A blank line between paragraphs away from a block stays: it is the paragraph gap.
    expect(parseMarkdown('One.\n\nTwo.\n\n```\nx\n```')).toEqual([t('One.\n\nTwo.'), block])
    // The indent of the line after a block is the text's own.
    expect(parseMarkdown('```\nx\n```\n  indented')).toEqual([block, t('  indented')])
  })

  it('runs a fence left open to the end (an answer still streaming)', () => {
    expect(parseMarkdown('```\nconst a = 1')).toEqual([{ kind: 'code_block', lang: null, text: 'const a = 1' }])
  })

  it('reads a longer fence as one block, with the shorter fences it quotes inside it, closed by a run as long or longer', () => {
    const readme = '# App\n\n```sh\nnpm start\n```\n\nDone.'
    expect(parseMarkdown(`README.md begins:\n\n\`\`\`\`md\n${readme}\n\`\`\`\`\n\nThat is all.`)).toEqual([
      t('README.md begins:'),
      { kind: 'code_block', lang: 'md', text: readme },
      t('That is all.'),
    ])
    // A closing run longer than the opening one closes it, whole: no backtick left over after the block.
    expect(parseMarkdown('```\nx\n`````\nDone.')).toEqual([{ kind: 'code_block', lang: null, text: 'x' }, t('Done.')])
    // Streaming: the quoted block's closing fence is code, and a backtick after it is too.
    expect(parseMarkdown('````md\n```sh\nnpm start\n```\nrun `npm', { streaming: true })).toEqual([
      { kind: 'code_block', lang: 'md', text: '```sh\nnpm start\n```\nrun `npm' },
    ])
    // Streaming: the first backticks of a long closing fence are not shown.
    expect(parseMarkdown('````md\n```sh\nx\n```\n```', { streaming: true })).toEqual([{ kind: 'code_block', lang: 'md', text: '```sh\nx\n```' }])
  })

  it('leaves out a fence marker still arriving at the end of a streaming answer, and nothing else', () => {
    const streaming = (text: string) => parseMarkdown(text, { streaming: true })
    // The closing fence's first backticks: the block shows its code, not a stray "``" at its foot.
    expect(streaming('```\nconst a = 1\n``')).toEqual([{ kind: 'code_block', lang: null, text: 'const a = 1' }])
    // An opening fence before its line break: no "```ts" in the text while it waits for its line.
    expect(streaming('Here:\n```ts')).toEqual([t('Here:\n')])
    // A code span not closed yet at the end is left for the delta that closes it.
    expect(streaming('Use `greet')).toEqual([t('Use ')])
    expect(streaming('Use `a` and `b')).toEqual(parseMarkdown('Use `a` and '))
    // In a code block, a backtick is code, shown as it comes.
    expect(streaming('```\nconst s = `hi')).toEqual([{ kind: 'code_block', lang: null, text: 'const s = `hi' }])
    // Whole lines are kept, and a finished answer is read as it is.
    expect(streaming('Use `greet` here')).toEqual(parseMarkdown('Use `greet` here'))
    expect(parseMarkdown('Here:\n```ts')).toEqual([t('Here:\n```ts')])
  })

  it('reads a pipe table, with its alignments, between lines of text', () => {
    const text = 'Sizes:\n| File | Lines | Note |\n|:-----|------:|:----:|\n| `a.ts` | 12 | **new** |\n| b.ts | 3 |\n\nDone.'
    expect(parseMarkdown(text)).toEqual([
      t('Sizes:'),
      {
        kind: 'table',
        align: ['left', 'right', 'center'],
        head: [[t('File')], [t('Lines')], [t('Note')]],
        // A short row gets empty cells: every row has the header's width.
        rows: [
          [[{ kind: 'code', text: 'a.ts' }], [t('12')], [{ kind: 'strong', children: [t('new')] }]],
          [[t('b.ts')], [t('3')], []],
        ],
      },
      // As around a code block, the blank line after the table is its margin.
      t('Done.'),
    ])
  })

  it('reads a table without outer pipes, and an escaped pipe inside a cell', () => {
    expect(parseMarkdown('a | b\n--- | ---\nx \\| y | z')).toEqual([{ kind: 'table', align: [null, null], head: [[t('a')], [t('b')]], rows: [[[t('x | y')], [t('z')]]] }])
  })

  it('leaves lines with pipes that are not a table as text', () => {
    // No delimiter row; a delimiter row of another width; a rule under a line of prose.
    for (const text of ['a | b\nc | d', '| a | b |\n|---|\n| c | d |', 'cat x | grep y\n---']) {
      expect(parseMarkdown(text)).toEqual([t(text)])
    }
  })

  it('shows a table still streaming from its delimiter row on', () => {
    expect(parseMarkdown('| a | b |\n|---|---|')).toEqual([{ kind: 'table', align: [null, null], head: [[t('a')], [t('b')]], rows: [] }])
    // Until the delimiter row has a cell for each column, the lines are text.
    expect(parseMarkdown('| a | b |\n|--')).toEqual([t('| a | b |\n|--')])
  })

  it('reads headings, keeping a # that belongs to the title', () => {
    expect(parseMarkdown('## Summary\nDone.')).toEqual([{ kind: 'heading', level: 2, children: [t('Summary')] }, t('\nDone.')])
    expect(parseMarkdown('# Notes on C# ##')).toEqual([{ kind: 'heading', level: 1, children: [t('Notes on C#')] }])
    expect(parseMarkdown('#hashtag')).toEqual([t('#hashtag')])
  })

  it('reads list items, bulleted or numbered, nested by indent, with their inline markup', () => {
    expect(parseMarkdown('Steps:\n- read **a.ts**\n  * then `b`\n2. done')).toEqual([
      t('Steps:\n'),
      { kind: 'list_item', marker: '•', depth: 0, children: [t('read '), { kind: 'strong', children: [t('a.ts')] }] },
      t('\n'),
      { kind: 'list_item', marker: '•', depth: 1, children: [t('then '), { kind: 'code', text: 'b' }] },
      t('\n'),
      { kind: 'list_item', marker: '2.', depth: 0, children: [t('done')] },
    ])
    // Bold at a line's start, a dash inside a line and a number without a space are not items.
    expect(parseMarkdown('**bold** start')).toEqual([{ kind: 'strong', children: [t('bold')] }, t(' start')])
    expect(parseMarkdown('a - b\n3.14 is pi')).toEqual([t('a - b\n3.14 is pi')])
  })
})

describe('parseUserText', () => {
  it('turns a slash command, its caveat and its output into parts (as Claude Code writes /mcp)', () => {
    const text = [
      '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands.</local-command-caveat>',
      '<command-name>/mcp</command-name>',
      '            <command-message>mcp</command-message>',
      '            <command-args></command-args>',
      '<local-command-stdout>Reconnected to tidewave.</local-command-stdout>',
      'scrolling back in xterm.js still does not work',
    ].join('\n')
    const parts = parseUserText(text)
    expect(parts).toEqual([
      { kind: 'aside', label: 'Claude Code’s note to the model about local commands', text: 'Caveat: The messages below were generated by the user while running local commands.' },
      { kind: 'command', name: '/mcp', args: '' },
      { kind: 'output', source: 'local command', stream: 'stdout', text: 'Reconnected to tidewave.' },
      t('scrolling back in xterm.js still does not work'),
    ])
    expect(onlyClaudeCodeMarkup(parts)).toBe(false)
  })

  it('reads a command whose message comes first, with its arguments (1.x order)', () => {
    const parts = parseUserText('<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app by Next.js</command-args>')
    expect(parts).toEqual([{ kind: 'command', name: '/orchestrator', args: 'create TODO app by Next.js' }])
    expect(onlyClaudeCodeMarkup(parts)).toBe(true)
  })

  it('keeps two commands apart', () => {
    const parts = parseUserText('<command-name>/model</command-name><command-args></command-args>\n<command-name>/compact</command-name><command-args>keep the API</command-args>')
    expect(parts).toEqual([
      { kind: 'command', name: '/model', args: '' },
      { kind: 'command', name: '/compact', args: 'keep the API' },
    ])
  })

  it("removes terminal colours from a command's output, and leaves out an empty one", () => {
    expect(parseUserText('<local-command-stdout>Kept model as \u001b[1mDefault (recommended)\u001b[22m</local-command-stdout><bash-stderr></bash-stderr>')).toEqual([
      { kind: 'output', source: 'local command', stream: 'stdout', text: 'Kept model as Default (recommended)' },
    ])
    expect(stripAnsi('\u001b[2mCompacted\u001b[22m')).toBe('Compacted')
  })

  it('reads a ! shell command and what it printed', () => {
    expect(parseUserText('<bash-input>ls</bash-input><bash-stdout>a\nb</bash-stdout>')).toEqual([
      { kind: 'shell', command: 'ls' },
      { kind: 'output', source: 'shell', stream: 'stdout', text: 'a\nb' },
    ])
  })

  it("turns a background task's notification into one line saying what finished, its fields and the line for the model folded under it", () => {
    // As Claude Code writes it (test/fixtures/real/spotter/4d5611e5-….jsonl).
    const output = '/tmp/claude-1000/-home-USER-projects-spotter/tasks/b7636e2.output'
    const text = [
      '<task-notification>',
      '<task-id>b7636e2</task-id>',
      `<output-file>${output}</output-file>`,
      '<status>completed</status>',
      '<summary>Background command "Run SessionLive tests" completed (exit code 0)</summary>',
      '</task-notification>',
      `Read the output file to retrieve the result: ${output}`,
    ].join('\n')
    const parts = parseUserText(text)
    expect(parts).toEqual([
      {
        kind: 'aside',
        label: 'task notification: Background command "Run SessionLive tests" completed (exit code 0)',
        text: ['task id: b7636e2', `output file: ${output}`, 'status: completed', `Read the output file to retrieve the result: ${output}`].join('\n'),
      },
    ])
    // Nothing in it is the user's.
    expect(onlyClaudeCodeMarkup(parts)).toBe(true)
    // Without a summary it says the status; what the user wrote after it stays theirs.
    expect(parseUserText('<task-notification><status>failed</status></task-notification>\nwhy did it fail?')).toEqual([
      { kind: 'aside', label: 'task notification: failed', text: 'status: failed' },
      t('why did it fail?'),
    ])
    expect(parseUserText('<task-notification>done</task-notification>')).toEqual([{ kind: 'aside', label: 'task notification', text: 'done' }])
  })

  it('leaves text without tags, and tags it does not know, as written', () => {
    expect(parseUserText('  fix the <b>bug</b>\n')).toEqual([t('  fix the <b>bug</b>\n')])
    expect(parseUserText('<task-list>done</task-list>')).toEqual([t('<task-list>done</task-list>')])
    expect(parseUserText('')).toEqual([])
  })
})
