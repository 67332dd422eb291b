import { describe, expect, it } from 'vitest'
import { applyExactEdit } from '../../../src-main/engine/tools/edit'
import { READ_MAX_LINE_CHARS, TOOL_OUTPUT_MAX_CHARS } from '../../../src-main/engine/tools/limits'
import { capText } from '../../../src-main/engine/tools/output'
import {
  renderCommandResult,
  renderGrepResult,
  renderNumberedLines,
  renderReadResult,
  renderTodos,
  splitLines,
} from '../../../src-main/engine/tools/render'

describe('read rendering', () => {
  it('counts lines as editors do', () => {
    expect(splitLines('')).toEqual([])
    expect(splitLines('a\nb\n')).toEqual(['a', 'b'])
    expect(splitLines('a\r\nb')).toEqual(['a', 'b'])
    expect(splitLines('\n')).toEqual([''])
  })

  it('numbers lines, cuts long ones, and stops at the budget', () => {
    const lines = ['alpha', 'x'.repeat(READ_MAX_LINE_CHARS + 5), 'gamma', 'delta']
    const all = renderNumberedLines(lines, { startLine: 1, endLine: 4 })
    expect(all.text.split('\n')[0]).toBe('1\talpha')
    expect(all.text).toContain(`[line cut at ${READ_MAX_LINE_CHARS} of ${READ_MAX_LINE_CHARS + 5} characters]`)
    expect(all.endLine).toBe(4)
    const tight = renderNumberedLines(lines, { startLine: 3, endLine: 4 }, 10)
    expect(tight).toEqual({ text: '3\tgamma\n', endLine: 3 })
  })

  it('says which lines were shown and where to continue', () => {
    expect(renderReadResult('a.ts', '1\tx\n', { startLine: 1, endLine: 1 }, 1)).toBe('1\tx\n')
    expect(renderReadResult('a.ts', 'body\n', { startLine: 1, endLine: 10 }, 30)).toBe('body\n[Lines 1–10 of 30 shown. Continue with offset=11.]')
    expect(renderReadResult('a.ts', 'body\n', { startLine: 21, endLine: 30 }, 30)).toBe('body\n[Lines 21–30 of 30 shown.]')
    expect(renderReadResult('a.ts', '', { startLine: 1, endLine: 0 }, 0)).toBe('a.ts is empty.')
  })
})

describe('other results', () => {
  it('ends a command with its exit status, and says what stopped it', () => {
    const output = capText('hello\n', 100, 'head_and_tail')
    expect(renderCommandResult(output, { kind: 'exited', exitCode: 2 })).toBe('hello\n[exit code 2]')
    expect(renderCommandResult(capText('', 100, 'head_and_tail'), { kind: 'exited', exitCode: 0 })).toBe('(no output)\n[exit code 0]')
    expect(renderCommandResult(output, { kind: 'timed_out', timeoutMs: 50 })).toContain('timed out after 50 ms')
    expect(renderCommandResult(output, { kind: 'aborted' })).toContain('interrupted by the user')
    expect(renderCommandResult(capText('x'.repeat(500), 100, 'head_and_tail'), { kind: 'exited', exitCode: 0 })).toContain('> out.log 2>&1')
  })

  it('says when a search stopped early', () => {
    expect(renderGrepResult('x', 'src', [], false)).toBe('No matches for /x/ in src.')
    expect(renderGrepResult('x', '.', ['a:1:x'], true)).toContain('Stopped after')
    // However long the result, it ends by saying it is incomplete, within the output limit.
    const long = renderGrepResult('x', '.', Array.from({ length: 300 }, (_, i) => `src/f${i}.ts:1:${'x'.repeat(300)}`), false, 'a folder could not be read.')
    expect(long.endsWith('\n[Incomplete: a folder could not be read.]')).toBe(true)
    expect(long.length).toBeLessThanOrEqual(TOOL_OUTPUT_MAX_CHARS + 200)
  })

  it('renders the plan', () => {
    expect(renderTodos([{ content: 'a', status: 'done' }, { content: 'b', status: 'in_progress' }, { content: 'c', status: 'pending' }])).toBe(
      'Plan updated:\n[x] a\n[~] b\n[ ] c',
    )
  })
})

describe('applyExactEdit', () => {
  it('replaces the single occurrence, literally', () => {
    expect(applyExactEdit('a\nfoo\nb\n', 'foo', '$& $1', 'f')).toEqual({ ok: true, text: 'a\n$& $1\nb\n', line: 2 })
  })

  it('refuses no match and several matches', () => {
    expect(applyExactEdit('abc', 'x', 'y', 'f')).toMatchObject({ ok: false, code: 'no_match' })
    const ambiguous = applyExactEdit('x x x', 'x', 'y', 'f')
    expect(ambiguous).toMatchObject({ ok: false, code: 'ambiguous_match' })
    if (!ambiguous.ok) expect(ambiguous.reason).toContain('3 times')
  })

  it('matches a model\'s \\n against a file\'s \\r\\n and keeps the file\'s line ends', () => {
    expect(applyExactEdit('a\r\nb\r\nc\r\n', 'a\nb', 'A\nB', 'f')).toEqual({ ok: true, text: 'A\r\nB\r\nc\r\n', line: 1 })
  })
})
