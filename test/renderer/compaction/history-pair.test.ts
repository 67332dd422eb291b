/**
 * The Compaction view's before/after texts: the session context the builder puts at the start of messages[0] is
 * the same at every pass, so a dry run's or a checkpoint's preview carries it too, and neither side paints it as
 * summarised or as the summary head.
 */
import { describe, expect, it } from 'vitest'
import type { CheckpointRecord, DraftView } from '../../../src-renderer/state/compaction'
import { historyPair, type PassText } from '../../../src-renderer/features/compaction/model/history-pair'
import { messagesOfPass, messagesOfView, renderHistory, type EntryLike, type HistoryText } from '../../../src-renderer/features/compaction/model/history-text'

const CONTEXT = ['# Session context', '', 'Taken when this session started; files and commits may have changed since.', '', 'Project: ledger', 'Root: ~/src/ledger'].join('\n')
const HEAD = '[Compacted: the conversation before this point is summarised.]\nThe first request: read notes0.md\n\nSUMMARY-TEXT'

const entries: EntryLike[] = [
  { id: 'e1', seq: 1, kind: 'user_message', content: [{ type: 'text', text: 'read notes0.md' }] },
  { id: 'e2', seq: 2, kind: 'assistant_message', content: [{ type: 'text', text: 'Read it: cursor pagination.' }] },
  { id: 'e3', seq: 3, kind: 'user_message', content: [{ type: 'text', text: 'list the files' }] },
  { id: 'e4', seq: 4, kind: 'assistant_message', content: [{ type: 'text', text: 'KEPT-ANSWER: three files.' }] },
]

/** The pass before the compaction, as the builder sent it: the session context first in messages[0]. */
const before: PassText = {
  seq: 4,
  requestBody: JSON.stringify({
    messages: [
      { role: 'user', content: [{ type: 'text', text: CONTEXT }, { type: 'text', text: 'read notes0.md' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Read it: cursor pagination.' }] },
      { role: 'user', content: [{ type: 'text', text: 'list the files' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'KEPT-ANSWER: three files.' }] },
    ],
  }),
  segments: [
    { path: 'messages[0]', provenance: { kind: 'history', entryIds: ['e1'], historyKind: 'user_input', blocks: [{ kind: 'section', section: 'session_context', reason: null }, { kind: 'history', entryIds: ['e1'], historyKind: 'user_input' }] } },
    { path: 'messages[1]', provenance: { kind: 'history', entryIds: ['e2'], historyKind: 'assistant', blocks: [{ kind: 'history' }] } },
    { path: 'messages[2]', provenance: { kind: 'history', entryIds: ['e3'], historyKind: 'user_input', blocks: [{ kind: 'history' }] } },
    { path: 'messages[3]', provenance: { kind: 'history', entryIds: ['e4'], historyKind: 'assistant', blocks: [{ kind: 'history' }] } },
  ],
}

const draft = { draftId: 'd1', keptEntryIds: ['e4'], trimmed: [], head: [{ text: HEAD }], summary: 'SUMMARY-TEXT' } as unknown as DraftView

/** The 1-based line numbers of `needle`'s lines in `text` (each found once, in order). */
function linesOf(text: string, needle: string): number[] {
  const lines = text.split('\n')
  const first = lines.findIndex((_, i) => lines.slice(i, i + needle.split('\n').length).join('\n') === needle)
  expect(first, `${JSON.stringify(needle.slice(0, 30))} in the text`).toBeGreaterThanOrEqual(0)
  return needle.split('\n').map((_, k) => first + k + 1)
}

const markAt = (h: HistoryText, line: number) => h.ranges.find((r) => r.startLine <= line && line <= r.endLine)?.mark ?? null

describe('the session context in the compaction diff', () => {
  it('comes out of messages[0] of a pass as its own part, by the provenance of its blocks', () => {
    const [first] = messagesOfPass(before.requestBody, before.segments)
    expect(first!.preamble).toEqual([{ type: 'text', text: CONTEXT }])
    expect(first!.content).toEqual([{ type: 'text', text: 'read notes0.md' }])
    // Without provenance of its blocks (a record of another agent), the message is shown whole, as before.
    const [plain] = messagesOfPass(before.requestBody, [{ path: 'messages[0]', provenance: { kind: 'history', entryIds: ['e1'] } }])
    expect(plain!.preamble).toBeUndefined()
  })

  it('is carried by a preview built from entries, in front of the head', () => {
    const after = messagesOfView([{ text: HEAD }], entries.slice(3), new Map(), [{ type: 'text', text: CONTEXT }])
    const text = renderHistory(after, { markOf: (m) => (m.kind === 'compaction_summary' ? 'summary' : null) })
    for (const line of linesOf(text.text, CONTEXT)) expect(markAt(text, line)).toBeNull()
    expect(markAt(text, linesOf(text.text, 'SUMMARY-TEXT')[0]!)).toBe('summary')
  })

  it("a dry run: both sides hold the same session context, unmarked; the first request is summarised, the head marked, the tail kept", () => {
    const pair = historyPair({ kind: 'draft', draft }, before, null, entries)
    expect(pair.afterIsPreview).toBe(true)
    for (const side of [pair.before, pair.after]) for (const line of linesOf(side.text, CONTEXT)) expect(markAt(side, line)).toBeNull()
    expect(markAt(pair.before, linesOf(pair.before.text, 'read notes0.md')[0]!)).toBe('summarised')
    expect(markAt(pair.after, linesOf(pair.after.text, 'SUMMARY-TEXT')[0]!)).toBe('summary')
    expect(markAt(pair.before, linesOf(pair.before.text, 'KEPT-ANSWER: three files.')[0]!)).toBeNull()
    expect(markAt(pair.after, linesOf(pair.after.text, 'KEPT-ANSWER: three files.')[0]!)).toBeNull()
    // The context stands first on both sides, so the diff lines it up as unchanged.
    expect(pair.after.text.split('\n').slice(0, 7)).toEqual(pair.before.text.split('\n').slice(0, 7))
    // A kept message moves up (messages[3] before, messages[1] after) under the same header: an unchanged line.
    const header = (side: HistoryText) => side.text.split('\n')[linesOf(side.text, 'KEPT-ANSWER: three files.')[0]! - 2]
    expect(header(pair.before)).toBe('── assistant · entry #4 ──')
    expect(header(pair.after)).toBe(header(pair.before))
  })

  it('a dry run with an edited summary shows the edit in the head', () => {
    const pair = historyPair({ kind: 'draft', draft, summary: 'MY-OWN-SUMMARY' }, before, null, entries)
    expect(pair.after.text).toContain('MY-OWN-SUMMARY')
    expect(pair.after.text).not.toContain('SUMMARY-TEXT')
  })

  it('a checkpoint whose first pass has not run: the preview from its view carries the session context, unmarked', () => {
    const checkpoint = { id: 'c1', seq: 5, kind: 'checkpoint', at: 100, replaced: { fromEntryId: 'e1', toEntryId: 'e3' }, trimmed: [], view: { head: [{ text: HEAD }], startEntryId: 'e4', dropped: [], replaced: [] } }
    const record = { checkpoint, realTokensAfter: null, context: null, passes: [] } as unknown as CheckpointRecord
    const pair = historyPair({ kind: 'checkpoint', record }, before, null, entries)
    expect(pair.afterIsPreview).toBe(true)
    for (const side of [pair.before, pair.after]) for (const line of linesOf(side.text, CONTEXT)) expect(markAt(side, line)).toBeNull()
    expect(markAt(pair.before, linesOf(pair.before.text, 'read notes0.md')[0]!)).toBe('summarised')
    expect(markAt(pair.before, linesOf(pair.before.text, 'list the files')[0]!)).toBe('summarised')
    expect(markAt(pair.after, linesOf(pair.after.text, 'SUMMARY-TEXT')[0]!)).toBe('summary')
  })
})
