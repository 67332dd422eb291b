/**
 * The small pieces: the summary's wrapper and scratchpad, stage 1's note, the split, settings from a config file,
 * the automatic policy, pins, context edits and the standalone transcript.
 */
import { describe, expect, it } from 'vitest'
import {
  afterAutoAttempt,
  checkPins,
  chooseForm,
  contextEntries,
  decideAuto,
  DEFAULT_COMPACTION_SETTINGS,
  extractSummary,
  findSplit,
  historyProblems,
  INITIAL_AUTO_STATE,
  resolveSettings,
  reviewEdits,
  summaryInstruction,
  textualise,
  trimToolResult,
  TRIM_MARKER,
} from '../../../src-main/engine/compaction'
import { HistoryCache, modelView } from '../../../src-main/engine/conversation/history'
import { FakeSession } from './fakes'

describe('extractSummary', () => {
  it('strips the analysis scratchpad and the summary wrapper', () => {
    expect(extractSummary('<analysis>\nthinking\n</analysis>\n\n<summary>\n1. Requests\n</summary>')).toBe('1. Requests')
    expect(extractSummary('no tags at all')).toBe('no tags at all')
    expect(extractSummary('<analysis>never closed')).toBe('')
  })
  it('keeps quoted tags inside the summary (a real session quoted a <summary> of its own)', () => {
    const text = '<summary>\n- "<task-notification><summary>Background command done</summary></task-notification>"\n- next\n</summary>'
    expect(extractSummary(text)).toBe('- "<task-notification><summary>Background command done</summary></task-notification>"\n- next')
  })
})

describe('trimToolResult', () => {
  const settings = DEFAULT_COMPACTION_SETTINGS
  it('cuts long results to 200 characters with a note that says how to read them again', () => {
    const trimmed = trimToolResult('x'.repeat(5000), { name: 'read_file', input: { path: 'src/a.ts' } }, settings)!
    expect(trimmed.startsWith('x'.repeat(200) + '\n')).toBe(true)
    expect(trimmed).toContain(`${TRIM_MARKER} 4,800 of 5,000 characters cut`)
    expect(trimmed).toContain('Call read_file with path "src/a.ts"')
    expect(trimToolResult('y'.repeat(3000), { name: 'bash', input: { command: 'npm test' } }, settings)).toContain('Run the command again if its output is needed: "npm test"')
  })
  it('leaves short and already trimmed results alone, and never splits a surrogate pair', () => {
    expect(trimToolResult('short', null, settings)).toBeNull()
    const once = trimToolResult('z'.repeat(3000), null, settings)!
    expect(trimToolResult(once + 'z'.repeat(2000), null, settings)).toBeNull()
    const emoji = trimToolResult('a'.repeat(199) + '🙂'.repeat(1000), null, settings)!
    expect(emoji.slice(0, 199)).toBe('a'.repeat(199))
    expect(emoji.charAt(199)).toBe('\n')
  })
})

describe('findSplit', () => {
  const session = new FakeSession()
  session.user('first')
  session.step([{ name: 'read_file', input: { path: 'a' }, result: 'a' }])
  session.reply('done')
  session.user('second')
  session.step([{ name: 'bash', input: { command: 'ls' }, result: 'x' }])
  session.reply('done again')
  const history = new HistoryCache().fromView(modelView(session.entries))
  it('keeps the last keepSteps assistant turns, starting with an assistant message', () => {
    const split = findSplit(history, 2, null)
    expect(split).toMatchObject({ ok: true, assistantTurns: 4 })
    if (split.ok) expect(history[split.index]!.message.role).toBe('assistant')
    expect(findSplit(history, 4, null)).toMatchObject({ ok: false, code: 'nothing_to_compact' })
  })
  it('cuts after a chosen entry or tool call, and keeps the last step when nothing follows', () => {
    const firstReply = session.entries.find((e) => e.kind === 'assistant_message' && e.content[0]?.type === 'text' && e.content[0].text === 'done')!
    const split = findSplit(history, 4, { kind: 'entry', entryId: firstReply.id })
    expect(split.ok && history[split.index]!.provenance.entryIds[0]).toBe(session.entries.find((e) => e.seq > firstReply.seq && e.kind === 'assistant_message')!.id)
    expect(findSplit(history, 4, { kind: 'tool_use', toolUseId: 'toolu_0001' })).toMatchObject({ ok: true, index: 3 })
    expect(findSplit(history, 4, { kind: 'entry', entryId: session.entries.at(-2)!.id })).toMatchObject({ ok: true, clamped: true })
    expect(findSplit(history, 4, { kind: 'entry', entryId: 'nope' })).toMatchObject({ ok: false, code: 'unknown_target' })
  })
})

describe('chooseForm', () => {
  const make = () => {
    const session = new FakeSession()
    session.user('first')
    session.step([{ name: 'read_file', input: { path: 'a' }, result: 'a' }])
    session.reply('done')
    session.user('second')
    session.reply('done again')
    return session
  }
  const form = (session: FakeSession) => {
    const history = new HistoryCache().fromView(modelView(session.entries))
    const split = findSplit(history, 1, null)
    if (!split.ok) throw new Error('no split')
    return chooseForm({ history, splitIndex: split.index, entries: session.entries, now: session.now })
  }
  it('cuts at the split while the pass that wrote there is recent and nothing re-keyed the prefix since', () => {
    expect(form(make())).toBe('cut')
  })
  it('sends the whole history when an instruction file was applied now or the model switched after the kept message', () => {
    for (const body of [
      { kind: 'notice', source: 'instructions', level: 'info', text: 'AGENTS.md applied now' },
      { kind: 'model_switched', model: 'claude-opus-4-6' },
    ] as const) {
      const session = make()
      session.append(body as never)
      expect(form(session), body.kind).toBe('upto')
      // A kept message made after it was written under the new prefix: cut again.
      session.user('third')
      session.reply('done three')
      expect(form(session), body.kind).toBe('cut')
    }
  })
  it('sends the whole history after a context edit of a message before the split, not of one after it', () => {
    const session = make()
    const early = session.entries.find((e) => e.kind === 'tool_result')!
    const late = session.entries.filter((e) => e.kind === 'assistant_message').at(-1)!
    session.append({ kind: 'context_edit', source: 'trim-old-tools', edits: [{ entryId: late.id, action: 'replace', content: '[trimmed]', reason: 'old' }] } as never)
    expect(form(session)).toBe('cut')
    session.append({ kind: 'context_edit', source: 'trim-old-tools', edits: [{ entryId: early.id, action: 'replace', content: '[trimmed]', reason: 'old' }] } as never)
    expect(form(session)).toBe('upto')
  })
})

describe('settings', () => {
  it('takes valid values and reports the rest', () => {
    const { settings, problems } = resolveSettings({ threshold: 0.9, target: 0.5, keep_steps: 2, window: 200000, colour: 'red', auto: 'yes' })
    expect(settings).toMatchObject({ threshold: 0.9, target: 0.5, keepSteps: 2, windowTokens: 200000, auto: true })
    expect(problems.map((p) => p.key)).toEqual(['auto', 'colour'])
    expect(resolveSettings({ threshold: 0.5, target: 0.7 }).settings).toMatchObject({ threshold: 0.8, target: 0.6 })
    expect(resolveSettings({ threshold: 2 }).problems).toHaveLength(1)
  })
})

describe('automatic policy', () => {
  const settings = DEFAULT_COMPACTION_SETTINGS
  it('fires at the threshold, never twice without a new pass, and not when off', () => {
    expect(decideAuto({ settings, windowTokens: 1000, tokens: 799, lastPassId: 'p1', state: INITIAL_AUTO_STATE })).toMatchObject({ compact: false, reason: 'below_threshold' })
    expect(decideAuto({ settings, windowTokens: 1000, tokens: 800, lastPassId: 'p1', state: INITIAL_AUTO_STATE })).toMatchObject({ compact: true })
    expect(decideAuto({ settings, windowTokens: 1000, tokens: 900, lastPassId: 'p1', state: { ...INITIAL_AUTO_STATE, attemptedAfterPass: 'p1' } })).toMatchObject({ compact: false, reason: 'no_new_pass' })
    expect(decideAuto({ settings: { ...settings, auto: false }, windowTokens: 1000, tokens: 900, lastPassId: 'p1', state: INITIAL_AUTO_STATE })).toMatchObject({ compact: false, reason: 'off' })
  })
  it('stops after three failures in a row; a success or a cancel resets or keeps the count', () => {
    let state = INITIAL_AUTO_STATE
    state = afterAutoAttempt(state, 'failed', 'p1', 'x').state
    state = afterAutoAttempt(state, 'cancelled', 'p2', 'x').state
    expect(state.failures).toBe(1)
    state = afterAutoAttempt(state, 'refused', 'p3', 'x').state
    const third = afterAutoAttempt(state, 'nothing_to_compact', 'p4', 'too small')
    expect(third.state.disabled).toBe(true)
    expect(third.stopped).toContain('after 3 failures in a row (last: too small)')
    expect(decideAuto({ settings, windowTokens: 10, tokens: 10, lastPassId: 'p5', state: third.state })).toMatchObject({ reason: 'disabled' })
    expect(afterAutoAttempt(third.state, 'applied', 'p5', '').state).toEqual({ failures: 0, disabled: false, attemptedAfterPass: 'p5' })
  })
})

describe('pins', () => {
  const pin = (pinId: string, text: string) => ({ pinId, text, sourceEntryId: null, entryId: `e_${pinId}` as never })
  it('finds pins where they survived and re-injects the rest within the budget', () => {
    const { checks, reinject } = checkPins([pin('a', 'use pnpm'), pin('b', 'quoted  in\nsummary'), pin('c', 'lost one'), pin('d', 'x'.repeat(55))], { keptText: 'always use pnpm', keptEntryIds: new Set(), summaryText: 'quoted in summary' }, 60)
    expect(checks.map((c) => c.status)).toEqual(['kept', 'in_summary', 'reinjected', 'lost'])
    expect(reinject).toEqual(['lost one'])
  })
})

describe('context edits', () => {
  const session = new FakeSession()
  session.user('read it')
  session.step([{ name: 'read_file', input: { path: 'a' }, result: 'content' }], { text: 'Reading.' })
  session.reply('It says content.')
  const view = modelView(session.entries)
  const entries = contextEntries(view, (e) => e.seq > 1)
  it('refuses what would break the history or touch the cached prefix', () => {
    const [user, call, result, reply] = entries
    const review = reviewEdits(entries, [
      { entryId: user!.entryId, action: 'drop', reason: 'r' },
      { entryId: call!.entryId, action: 'replace', content: 'x', reason: 'r' },
      { entryId: result!.entryId, action: 'drop', reason: 'r' },
      { entryId: result!.entryId, action: 'replace', content: 'shorter', reason: 'r' },
      { entryId: reply!.entryId, action: 'replace', content: 'It says it.', reason: 'r' },
      { entryId: 'ghost', action: 'drop', reason: 'r' },
    ])
    expect(review.accepted.map((a) => a.entryId)).toEqual([result!.entryId, reply!.entryId])
    expect(review.refused.map((r) => r.reason)).toEqual([
      expect.stringContaining('above a cache breakpoint'),
      expect.stringContaining('calls tools'),
      expect.stringContaining('cannot be dropped'),
      expect.stringContaining('does not see'),
    ])
  })
})

describe('the standalone transcript and the instruction', () => {
  it('writes tool calls and results as text, drops thinking, replaces images, and stays valid', () => {
    const session = new FakeSession()
    session.user('look at this', 1)
    session.step([{ name: 'read_file', input: { path: 'a.ts' }, result: 'const a = 1' }], { thinking: 'hmm' })
    const wire = textualise(new HistoryCache().fromView(modelView(session.entries)).map((m) => m.message))
    const text = JSON.stringify(wire)
    expect(text).toContain('[image]')
    expect(text).toContain('[tool call read_file (toolu_0001): {\\"path\\":\\"a.ts\\"}]')
    expect(text).toContain('[tool result for toolu_0001]\\nconst a = 1')
    expect(text).not.toContain('hmm')
    expect(historyProblems(wire)).toEqual([])
    expect(wire.every((m) => m.content.every((b) => b.type === 'text'))).toBe(true)
  })
  it('asks for text only, names the kept part, and puts the focus on its own line', () => {
    const text = summaryInstruction({ form: 'upto', focus: 'the API decisions', instructions: 'Be brief.', keptStart: 'Now running the tests', keptSteps: 4 })
    expect(text).toContain('Respond with text only, do not call tools.')
    expect(text).toContain('“Now running the tests”')
    expect(text).toContain('The user asks the summary to keep, above all: the API decisions')
    expect(text.split('\n')).toContain('Focus: the API decisions')
    expect(text.match(/focus/gi)).toHaveLength(1)
    expect(text).toContain('Further instructions for the summary: Be brief.')
    expect(text.startsWith('[')).toBe(false)
  })
})
