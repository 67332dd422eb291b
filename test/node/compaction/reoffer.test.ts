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
const listing = (id: string): Entry[] => [
  { kind: 'assistant_message', id: `a_${id}`, sessionId: 's', seq: ++seq, at: seq, passId: 'p', partial: false, stopReason: 'tool_use', content: [{ type: 'tool_use', id, name: 'list_dir', input: { path: 'src' } }] },
  { kind: 'tool_result', id: `r_${id}`, sessionId: 's', seq: ++seq, at: seq, toolUseId: id, toolName: 'list_dir', content: 'a.ts\n', isError: false, outcome: 'ran' },
] as unknown as Entry[]
/** A checkpoint whose head offered `offered` again, the model's view going on from `startEntryId`. */
const checkpoint = (startEntryId: string, offered: string): Entry =>
  ({
    kind: 'checkpoint', id: `c_${++seq}`, sessionId: 's', seq, at: seq, stage: 'summary',
    view: { head: [{ type: 'text', text: `[File read recently, offered again as it is now: ${offered}]\n1\t# rules\n` }], startEntryId, replaced: [], dropped: [] },
    reinjected: { files: [{ path: offered, tokens: 5, offered: 'content' }], pins: [], sessionBlock: null },
  }) as unknown as Entry

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

  it('at a second compaction, does not offer again a file the first offered and nothing read or changed since', () => {
    // Before the first compaction: README.md read, then two listings; the first compaction summarised the read,
    // kept the second listing, and offered README.md in its head.
    const before = [read('f1', 'README.md'), result('f1', '1\t# rules\n'), ...listing('l1'), ...listing('l2')]
    const first = checkpoint('a_l2', 'README.md')
    // After it: src/a.ts and src/b.ts read (the second compaction summarises both reads), then two listings.
    const after = [read('f2', 'src/a.ts'), result('f2', '1\tx\n'), read('f3', 'src/b.ts'), result('f3', '1\ty\n'), ...listing('l3'), ...listing('l4')]
    const entries = [...before, first, ...after]
    const kept = new Set(after.slice(-2).map((e) => e.id))
    // The listing the first compaction kept is still in the model's view, README.md only in the head it summarises.
    expect(recentFiles(entries, kept, 5)).toEqual(['src/b.ts', 'src/a.ts'])

    // Read again since the first compaction, it is in use, and offered again.
    const reread = [read('f4', 'README.md'), result('f4', '1\t# rules\n'), ...listing('l5')]
    expect(recentFiles([...entries, ...reread], new Set(reread.slice(-2).map((e) => e.id)), 5)).toEqual(['README.md', 'src/b.ts', 'src/a.ts'])
  })

  it('counts the reads a checkpoint kept: the model saw them whole until this compaction', () => {
    const before = [read('k1', 'src/old.ts'), result('k1', '1\told\n'), read('k2', 'src/kept.ts'), result('k2', '1\tkept\n')]
    // The first compaction summarised src/old.ts's read (and offered it) and kept src/kept.ts's.
    const entries = [...before, checkpoint('a_k2', 'src/old.ts'), ...listing('l6'), ...listing('l7')]
    expect(recentFiles(entries, new Set(entries.slice(-2).map((e) => e.id)), 5)).toEqual(['src/kept.ts'])
  })
})
