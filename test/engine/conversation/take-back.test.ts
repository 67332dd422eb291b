import { describe, expect, it } from 'vitest'
import type { Entry, EntryBody } from '../../../src-main/engine/conversation/entries'
import { toHistory } from '../../../src-main/engine/conversation/history'
import { keptUserMessage, lastTakeBackIndex, planTakeBack, TAKE_BACK_SOURCE, withCarriedNotes } from '../../../src-main/engine/conversation/take-back'
import type { ContextNote } from '../../../src-main/engine/prompt/notes'

/** A session log from bodies: ids e1, e2 … in order. */
function log(bodies: ReadonlyArray<EntryBody>): Entry[] {
  return bodies.map((body, i) => ({ ...body, id: `e${i + 1}`, sessionId: 's', seq: i + 1, at: 1_000 + i }) as Entry)
}

const user = (text: string, notes?: ContextNote[]): EntryBody => ({ kind: 'user_message', content: [{ type: 'text', text }], ...(notes ? { notes } : {}) })
const answer = (text: string): EntryBody => ({ kind: 'assistant_message', passId: 'p' as never, content: [{ type: 'text', text }], stopReason: 'end_turn', partial: false })
const toolCall = (id: string): EntryBody => ({ kind: 'assistant_message', passId: 'p' as never, content: [{ type: 'tool_use', id, name: 'read_file', input: { path: 'a.ts' } }], stopReason: 'tool_use', partial: false })
const result = (id: string, notes?: ContextNote[]): EntryBody => ({ kind: 'tool_result', toolUseId: id, toolName: 'read_file', content: 'x', isError: false, outcome: 'ran', ...(notes ? { notes } : {}) })
const ended: EntryBody = { kind: 'turn_ended', reason: 'end_turn' }
const nested: ContextNote = { kind: 'nested_instructions', dir: 'src/', path: 'src/AGENTS.md', trigger: 'src/a.ts', text: 'Use tabs.' }
const changed = (path: string): ContextNote => ({ kind: 'file_changed', path, fileKind: 'instructions', change: 'modified', entryId: null })

/** The log with a plan's edit appended, as the runtime writes it. */
function taken(entries: Entry[], entryId: string): Entry[] {
  const plan = planTakeBack(entries, entryId)
  if (!plan.ok) throw new Error(plan.message)
  return log([...entries, { kind: 'context_edit', source: TAKE_BACK_SOURCE, edits: plan.edits }])
}

describe('taking a message back', () => {
  const twoTurns = log([user('first'), answer('one'), ended, user('second', [changed('CLAUDE.md')]), toolCall('t1'), result('t1', [nested]), answer('two'), ended])

  it('drops the last message and what the model saw after it, keeps the turn markers, and gathers the notes', () => {
    const plan = planTakeBack(twoTurns, 'e4')
    expect(plan).toEqual({
      ok: true,
      text: 'second',
      edits: [
        { entryId: 'e4', action: 'drop', reason: 'taken back by the user' },
        { entryId: 'e5', action: 'drop', reason: 'an answer to a message taken back' },
        { entryId: 'e6', action: 'drop', reason: 'an answer to a message taken back' },
        { entryId: 'e7', action: 'drop', reason: 'an answer to a message taken back' },
      ],
      notes: [changed('CLAUDE.md'), nested],
      toolUseIds: ['t1'],
      messages: 1,
    })
    // What the model sees ends with the answer before it: valid to send with a new message after it.
    const history = toHistory(taken(twoTurns, 'e4'))
    expect(history.map((m) => m.message.role)).toEqual(['user', 'assistant'])
    expect(JSON.stringify(history)).not.toContain('second')
  })

  it('goes one message further back at a time', () => {
    const once = taken(twoTurns, 'e4')
    expect(planTakeBack(once, 'e4')).toMatchObject({ ok: false, reason: 'taken_back', message: 'This message was already taken back' })
    const twice = taken(once, 'e1')
    expect(toHistory(twice)).toEqual([])
    expect(lastTakeBackIndex(twice)).toBe(twice.length - 1)
  })

  it('takes an earlier message back with every later message and answer the model sees, its own text to the box', () => {
    const plan = planTakeBack(twoTurns, 'e1')
    expect(plan).toMatchObject({ ok: true, text: 'first', messages: 2, toolUseIds: ['t1'], notes: [changed('CLAUDE.md'), nested] })
    if (!plan.ok) return
    expect(plan.edits.map((e) => [e.entryId, e.reason])).toEqual([
      ['e1', 'taken back by the user'],
      ['e2', 'an answer to a message taken back'],
      ['e4', 'sent after a message taken back'],
      ['e5', 'an answer to a message taken back'],
      ['e6', 'an answer to a message taken back'],
      ['e7', 'an answer to a message taken back'],
    ])
    expect(toHistory(taken(twoTurns, 'e1'))).toEqual([])
    // A later message already taken back is not dropped a second time.
    const again = planTakeBack(taken(twoTurns, 'e4'), 'e1')
    expect(again).toMatchObject({ ok: true, messages: 1 })
    if (again.ok) expect(again.edits.map((e) => e.entryId)).toEqual(['e1', 'e2'])
  })

  it('refuses an answer, an unknown id, and a message a compaction folded in', () => {
    expect(planTakeBack(twoTurns, 'e7')).toMatchObject({ ok: false, reason: 'not_a_message' })
    expect(planTakeBack(twoTurns, 'nope')).toMatchObject({ ok: false, reason: 'not_found' })
    const checkpoint = {
      kind: 'checkpoint',
      trigger: 'manual',
      view: { head: [{ type: 'text', text: 'summary' }], startEntryId: 'e4', replaced: [], dropped: [] },
    } as unknown as EntryBody
    const compacted = log([...twoTurns, checkpoint])
    expect(planTakeBack(compacted, 'e4')).toMatchObject({ ok: false, reason: 'compacted', message: expect.stringContaining('compacted after it was sent') })
  })

  it("refuses a message a continued session carried over from Claude Code's conversation, and stops there going back", () => {
    // The first four entries came from Claude Code: its last user message is its own marker, not the user's words.
    const continued = log([user('fix the parser'), answer('done'), ended, user('[Request interrupted by user]'), user('and the tests'), answer('ok'), ended])
    expect(planTakeBack(continued, 'e4', 4)).toMatchObject({ ok: false, reason: 'carried_over', message: expect.stringContaining('only a message sent in Loupe can be taken back') })
    expect(planTakeBack(continued, 'e1', 4)).toMatchObject({ ok: false, reason: 'carried_over' })
    // The message sent in Loupe is taken back; the carried-over one before it is not offered next.
    const after = taken(continued, 'e5')
    expect(planTakeBack(after, 'e4', 4)).toMatchObject({ ok: false, reason: 'carried_over' })
  })

  it('has no take-back to find in a log without one', () => {
    expect(lastTakeBackIndex(twoTurns)).toBe(-1)
  })

  it('knows when no message the user sent is left', () => {
    expect(keptUserMessage(twoTurns)).toBe(true)
    expect(keptUserMessage(taken(twoTurns, 'e4'))).toBe(true)
    expect(keptUserMessage(taken(taken(twoTurns, 'e4'), 'e1'))).toBe(false)
  })
})

describe('notes carried from a take-back', () => {
  it('go before the next message\'s own, a file noted again said once, as it is now', () => {
    const fresh = [changed('CLAUDE.md'), changed('AGENTS.md')]
    expect(withCarriedNotes([changed('CLAUDE.md'), nested], fresh)).toEqual([nested, ...fresh])
    expect(withCarriedNotes([], fresh)).toEqual(fresh)
  })
})
