/** How the chat folds a message taken back (decision 0024), and which message offers "Take back". */
import { describe, expect, it } from 'vitest'
import type { EntryView } from '../../../src-preload/contract'
import { boxAfterTakeBack, messagesTakenFrom, takeBackable, takeBackableMessages, takeBacks, takeBackSummary, takeBackUndoneWords } from '../../../src-renderer/features/chat/take-back'
import { isReadOnlyAccess, TOOL_ACCESS, TOOL_NAMES } from '../../../src-preload/tool-access'

let seq = 0
const entry = (kind: string, extra: Record<string, unknown> = {}): EntryView => ({ id: `e${++seq}`, sessionId: 's', seq, at: seq, kind, ...extra }) as unknown as EntryView
const message = (text: string) => entry('user_message', { content: [{ type: 'text', text }] })
const takeBack = (...dropped: EntryView[]) => entry('context_edit', { source: 'take-back', edits: dropped.map((e) => ({ entryId: e.id, action: 'drop' })) })

describe('a message taken back, in the chat', () => {
  it('folds the message and its turn under the take-back; a model switch after the turn stays in the open', () => {
    const first = message('first')
    const firstAnswer = entry('assistant_message')
    const second = message('second\nwith details')
    const call = entry('assistant_message')
    const result = entry('tool_result', { outcome: 'ran', toolName: 'edit_file' })
    const answer = entry('assistant_message')
    const ended = entry('turn_ended')
    const switched = entry('model_switched')
    const back = takeBack(second, call, result, answer)
    const entries = [first, firstAnswer, entry('turn_ended'), second, call, result, answer, ended, switched, back]

    const { folded, under } = takeBacks(entries)
    expect(under.get(back.id)).toEqual([second, call, result, answer, ended])
    expect([...folded]).toEqual([second.id, call.id, result.id, answer.id, ended.id])
    expect(takeBackSummary(under.get(back.id)!)).toEqual({ message: 'second', laterMessages: 0, answers: 2, toolCallsRan: 1, toolCallsCut: 0, changing: true, onlyRead: false })
    expect(takeBackSummary([message('run it'), entry('tool_result', { outcome: 'interrupted' })])).toMatchObject({ toolCallsRan: 0, toolCallsCut: 1 })
    // The offer moves to the message before it.
    expect(takeBackable(entries, folded)).toBe(first)
  })

  it('says files edited stay edited only when a call taken back could have changed something', () => {
    const read = entry('tool_result', { outcome: 'ran', toolName: 'read_file' })
    expect(takeBackSummary([message('read it'), read, entry('tool_result', { outcome: 'ran', toolName: 'grep' })])).toMatchObject({ toolCallsRan: 2, changing: false })
    // A command refused at the approval did nothing; one stopped while it ran may have.
    expect(takeBackSummary([message('run it'), read, entry('tool_result', { outcome: 'denied', toolName: 'bash' })]).changing).toBe(false)
    expect(takeBackSummary([message('run it'), read, entry('tool_result', { outcome: 'interrupted', toolName: 'bash' })]).changing).toBe(true)
    expect(takeBackSummary([message('write it'), entry('tool_result', { outcome: 'ran', toolName: 'write_file' })]).changing).toBe(true)
  })

  it('says a turn that only read the project left nothing on disk to undo', () => {
    const ran = (toolName: string, outcome = 'ran') => entry('tool_result', { outcome, toolName })
    const words = (...calls: EntryView[]) => takeBackUndoneWords(takeBackSummary([message('look around'), entry('assistant_message'), ...calls]))
    expect(words(ran('read_file'), ran('grep'), ran('list_dir'))).toBe('Its 3 tool calls only read the project: there is nothing on disk to undo.')
    expect(words(ran('glob'))).toBe('Its tool call only read the project: there is nothing on disk to undo.')
    // A read stopped midway read at most; updating the plan changes nothing on disk; a refused write did nothing.
    expect(words(ran('read_file', 'interrupted'), ran('todo_write'), ran('write_file', 'denied'))).toBe('Its 2 tool calls only read the project: there is nothing on disk to undo.')
    // One call that could have changed something, or one of a tool not known to only read, is not said to have read.
    expect(words(ran('read_file'), ran('edit_file'))).toBe('What its 2 tool calls did is not undone (files edited stay edited).')
    expect(words(ran('read_file'), ran('bash', 'interrupted'))).toBe('What its 2 tool calls did, or had started to do when stopped, is not undone (files edited stay edited).')
    expect(words(ran('read_file'), ran('some_new_tool'))).toBe('What its 2 tool calls did is not undone.')
    // Every tool the agent has is one or the other, from the same table the engine's permissions use; only a
    // compaction (which a take-back never reaches) is neither.
    for (const tool of TOOL_NAMES) {
      const summary = takeBackSummary([message('go'), ran(tool)])
      expect([summary.changing, summary.onlyRead], tool).toEqual(tool === 'compact' ? [false, false] : [!isReadOnlyAccess(TOOL_ACCESS[tool]), isReadOnlyAccess(TOOL_ACCESS[tool])])
    }
    // No call ran: nothing is said.
    expect(words()).toBeNull()
    expect(words(ran('bash', 'denied'))).toBeNull()
  })

  it('nests a take-back inside the next one that reaches further back', () => {
    const first = message('first')
    const second = message('second')
    const inner = takeBack(second)
    const outer = takeBack(first)
    const { folded, under } = takeBacks([first, second, inner, outer])
    expect(under.get(inner.id)).toEqual([second])
    expect(under.get(outer.id)).toEqual([first, inner])
    expect(folded.has(outer.id)).toBe(false)
    expect(takeBackable([first, second, inner, outer], folded)).toBeNull()
  })

  it("offers nothing on a message a continued session carried over from Claude Code, and stops there going back", () => {
    // The session's first entries are Claude Code's: its last user message there is its own marker.
    const continued = [message('fix the parser'), entry('assistant_message'), message('[Request interrupted by user]')]
    const marker = continued[2]!
    // (The entries' seq here run on across the file's tests: everything up to the marker was carried over.)
    const carried = marker.seq
    expect(takeBackable(continued, new Set(), carried)).toBeNull()
    expect(takeBackable(continued, new Set(), null)).toBe(marker)
    // A message sent in Loupe is offered; once taken back, the offer does not move to Claude Code's message.
    const mine = message('list src')
    const answer = entry('assistant_message')
    const withMine = [...continued, mine, answer]
    expect(takeBackable(withMine, new Set(), carried)).toBe(mine)
    const back = takeBack(mine, answer)
    const after = [...withMine, back]
    expect(takeBackable(after, takeBacks(after).folded, carried)).toBeNull()
  })

  it('offers nothing once a compaction came after the last message', () => {
    const m = message('hello')
    expect(takeBackable([m, entry('assistant_message')], new Set())).toBe(m)
    expect(takeBackable([m, entry('assistant_message'), entry('checkpoint')], new Set())).toBeNull()
  })

  it('offers every message the model still sees since the last compaction; an earlier one counts the later ones it takes', () => {
    const old = message('before the summary')
    const oldAnswer = entry('assistant_message')
    const checkpoint = entry('checkpoint')
    const a = message('a')
    const aAnswer = entry('assistant_message')
    const b = message('b')
    const bAnswer = entry('assistant_message')
    const c = message('c')
    const gone = takeBack(c)
    const entries = [old, oldAnswer, checkpoint, a, aAnswer, b, bAnswer, c, gone]
    const offered = takeBackableMessages(entries, takeBacks(entries).folded)
    expect(offered).toEqual([a, b])
    expect(messagesTakenFrom(offered, b)).toBe(1)
    expect(messagesTakenFrom(offered, a)).toBe(2)
    expect(messagesTakenFrom(offered, old)).toBe(0)
    expect(messagesTakenFrom(offered, c)).toBe(0)
    expect(takeBackable(entries, takeBacks(entries).folded)).toBe(b)

    // Taken back from `a`: one fold holds both messages (and the take-back of `c` before, folded in its own).
    const fromA = takeBack(a, aAnswer, b, bAnswer)
    const after = [...entries, fromA]
    const { under } = takeBacks(after)
    expect(under.get(fromA.id)).toEqual([a, aAnswer, b, bAnswer, gone])
    expect(takeBackSummary(under.get(fromA.id)!)).toMatchObject({ message: 'a', laterMessages: 1, answers: 2 })
    expect(takeBackableMessages(after, takeBacks(after).folded)).toEqual([])
  })

  it('cuts a long first line at a character, never inside one', () => {
    expect(takeBackSummary([message('🙂'.repeat(100))]).message).toBe(`${'🙂'.repeat(79)}…`)
  })
})

describe('the message box after a take-back', () => {
  it('puts the message before what was typed, and a second take-back replaces the first message, not joins it', () => {
    const once = boxAfterTakeBack('and then the tests', 'list the root', undefined)
    expect(once).toEqual({ box: 'list the root\n\nand then the tests', typed: 'and then the tests' })
    expect(boxAfterTakeBack(once.box, 'read README.md', once).box).toBe('read README.md\n\nand then the tests')
    // Changed since: what is in the box now is the user's, and is kept whole.
    expect(boxAfterTakeBack('list the files', 'read README.md', once).box).toBe('read README.md\n\nlist the files')
    expect(boxAfterTakeBack('  ', 'read README.md', undefined).box).toBe('read README.md')
  })
})
