/** Which files a compaction offers again: those whose content leaves the context with it. */
import { describe, expect, it } from 'vitest'
import type { Entry } from '../../../src-main/engine/conversation/entries'
import { renderUnchangedRead } from '../../../src-main/engine/tools/render'
import { recentFiles } from '../../../src-main/node/compaction/reoffer'

let seq = 0
const read = (id: string, path: string): Entry =>
  ({ kind: 'assistant_message', id: `a_${id}`, sessionId: 's', seq: ++seq, at: seq, passId: 'p', partial: false, stopReason: 'tool_use', content: [{ type: 'tool_use', id, name: 'read_file', input: { path } }] }) as unknown as Entry
const result = (id: string, content: string, isError = false): Entry =>
  ({ kind: 'tool_result', id: `r_${id}`, sessionId: 's', seq: ++seq, at: seq, toolUseId: id, toolName: 'read_file', content, isError, outcome: 'ran' }) as unknown as Entry

describe('recentFiles', () => {
  it('skips a file whose content a kept read shows, and offers one a kept read only points back to', () => {
    const entries = [
      read('t1', 'src/cart.ts'),
      result('t1', '1\tlet sum = 0\n'),
      read('t2', 'src/util.ts'),
      result('t2', '1\texport {}\n'),
      // Kept: util.ts shown again in full; cart.ts answered "unchanged", pointing at t1, which is summarised away.
      read('t3', 'src/util.ts'),
      result('t3', '1\texport {}\n'),
      read('t4', 'src/cart.ts'),
      result('t4', renderUnchangedRead('src/cart.ts', { startLine: 1, endLine: 1 }, 1)),
    ]
    const kept = new Set(entries.slice(4).map((e) => e.id))
    expect(recentFiles(entries, kept, 5)).toEqual(['src/cart.ts'])
    // A kept read that failed shows nothing either.
    const failed = [read('t5', 'src/a.ts'), result('t5', 'src/a.ts does not exist.', true)]
    expect(recentFiles([...entries, ...failed], new Set([...kept, ...failed.map((e) => e.id)]), 5)).toEqual(['src/a.ts', 'src/cart.ts'])
  })

  it('does not offer an instruction file the system prompt sends whole, however the model wrote its path', () => {
    const entries = [read('u1', './CLAUDE.md'), result('u1', '1\t# rules\n'), read('u2', 'src//app.ts'), result('u2', '1\tx\n')]
    expect(recentFiles(entries, new Set(), 5, new Set(['CLAUDE.md']))).toEqual(['src/app.ts'])
  })
})
