import { describe, expect, it } from 'vitest'
import {
  buildPromptPlan,
  freezeSessionSection,
  PlanError,
  renderRequest,
  validatePlan,
  type HistoryMessage,
  type PromptPlan,
} from '../../../src-main/engine/prompt'
import { assistantToolUse, baseInput, fakeHasher, gathered, SETTINGS, toolResult, user } from './fakes'

function codeOf(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    return err instanceof PlanError ? err.code : `not a PlanError: ${String(err)}`
  }
  return 'did not throw'
}

const history3: HistoryMessage[] = [user('Fix the test.', 'e1'), assistantToolUse('e2', 'tu1', 'src/a.ts'), toolResult('e3', 'tu1', 'contents of a.ts')]

describe('buildPromptPlan: cache order', () => {
  it('sends tools sorted by name, then the static block, the session block, then messages', () => {
    const request = renderRequest(buildPromptPlan(baseInput()))
    expect(request.tools!.map((t) => t.name)).toEqual(['bash', 'edit', 'read'])
    const [staticBlock, sessionBlock] = request.system!
    expect(request.system).toHaveLength(2)
    const s = staticBlock!.text
    expect(s.indexOf('You are Loupe')).toBeLessThan(s.indexOf('This is Loupe, and the model is claude-sonnet-4-6.'))
    expect(s.indexOf('This is Loupe')).toBeLessThan(s.indexOf('Features on in this session:'))
    expect(s.indexOf('Features on')).toBeLessThan(s.indexOf('Build and test'))
    const t = sessionBlock!.text
    expect(t.indexOf('# Project instructions')).toBeLessThan(t.indexOf('# Memory'))
    expect(request.messages[0]!.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^# Session context/) })
    expect(request.messages[0]!.content[1]).toMatchObject({ type: 'text', text: 'Fix the failing test.' })
  })

  it('leaves the session block out when there is nothing to say in it', () => {
    const empty = freezeSessionSection(gathered({ files: {} }), { origin: { kind: 'session_start' }, contextWindowTokens: 200_000, skills: true })
    const plan = buildPromptPlan(baseInput({ session: empty }))
    expect(plan.system).toHaveLength(1)
    expect(plan.breakpoints.map((b) => b.tag)).toEqual(['static', 'newest_tail'])
  })

  it('labels every block with provenance and stability', () => {
    const plan = buildPromptPlan(baseInput({ history: history3 }))
    expect(plan.tools[0]!.provenance).toEqual({ kind: 'tool', name: 'bash' })
    expect(plan.system.map((b) => b.stability)).toEqual(['static', 'session'])
    expect(plan.system[1]!.spans).toContainEqual(expect.objectContaining({ section: 'project_instructions', file: 'AGENTS.md' }))
    expect(plan.messages[0]!.blocks[0]).toMatchObject({ stability: 'session', provenance: { kind: 'section', section: 'session_context' } })
    expect(plan.messages[1]!.blocks[1]).toMatchObject({ stability: 'history', provenance: { kind: 'history', entryIds: ['e2'], historyKind: 'assistant' } })
    const span = plan.system[1]!.spans.find((x) => x.file === 'AGENTS.md')!
    expect(plan.system[1]!.wire.text.slice(span.start, span.end)).toMatch(/^## AGENTS\.md\n\n# Agents/)
  })

  it('estimates tokens as ceil(chars / 4) and adds them up', () => {
    const plan = buildPromptPlan(baseInput({ history: history3 }))
    expect(plan.system[0]!.tokens).toBe(Math.ceil(plan.system[0]!.wire.text.length / 4))
    const sum = [...plan.tools, ...plan.system].reduce((n, b) => n + b.tokens, 0) + plan.messages.reduce((n, m) => n + m.tokens, 0)
    expect(plan.tokens.total).toBe(sum)
  })
})

describe('buildPromptPlan: breakpoints', () => {
  it('marks the static block with a 1h TTL when asked, and 5m otherwise', () => {
    expect(renderRequest(buildPromptPlan(baseInput())).system![0]!.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' })
    const off = renderRequest(buildPromptPlan(baseInput({ settings: { ...SETTINGS, staticCacheTtl1h: false } })))
    expect(off.system![0]!.cache_control).toEqual({ type: 'ephemeral' })
  })

  it('places four: static, session, previous tail, newest tail', () => {
    const plan = buildPromptPlan(baseInput({ history: history3, previousTailIndex: 1 }))
    expect(plan.breakpoints.map((b) => [b.tag, b.area, b.index, b.blockIndex])).toEqual([
      ['static', 'system', 0, 0],
      ['session', 'system', 1, 0],
      ['previous_tail', 'messages', 1, 1],
      ['newest_tail', 'messages', 2, 0],
    ])
    const request = renderRequest(plan)
    expect(request.messages[1]!.content[1]).toMatchObject({ type: 'tool_use', cache_control: { type: 'ephemeral' } })
    expect(request.messages[2]!.content[0]).toMatchObject({ type: 'tool_result', cache_control: { type: 'ephemeral' } })
    expect(JSON.stringify(request).match(/cache_control/g)).toHaveLength(4)
  })

  it('uses one marker when the previous tail is the newest tail (a retry)', () => {
    const plan = buildPromptPlan(baseInput({ history: history3, previousTailIndex: 2 }))
    expect(plan.breakpoints.map((b) => b.tag)).toEqual(['static', 'session', 'newest_tail'])
  })

  it('never marks a thinking block or empty text: the tail walks back to a block that can carry a marker', () => {
    const thinkingLast: HistoryMessage = {
      message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }, { type: 'thinking', thinking: 'hm', signature: 'sig' }] },
      provenance: { entryIds: ['e2'], kind: 'assistant' },
    }
    const plan = buildPromptPlan(baseInput({ history: [user('hi', 'e1'), thinkingLast] }))
    expect(plan.breakpoints.at(-1)).toMatchObject({ tag: 'newest_tail', index: 1, blockIndex: 0 })
  })

  it('removes cache_control that came in with the history: the builder alone places breakpoints', () => {
    const marked: HistoryMessage = {
      message: { role: 'user', content: [{ type: 'text', text: 'old', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'new' }] },
      provenance: { entryIds: ['e1'], kind: 'user_input' },
    }
    const request = renderRequest(buildPromptPlan(baseInput({ history: [marked] })))
    expect(request.messages[0]!.content[1]).toEqual({ type: 'text', text: 'old' })
  })

  it('does not touch the remembered message when it marks a copy', () => {
    const input = baseInput({ history: history3, previousTailIndex: 1 })
    buildPromptPlan(input)
    const next = buildPromptPlan({ ...input, previousTailIndex: null })
    expect(JSON.stringify(renderRequest(next).messages[1])).not.toContain('cache_control')
  })
})

describe('buildPromptPlan: notes and volatile sections', () => {
  it('renders notes after the content of their message, with their provenance', () => {
    const withNote: HistoryMessage = {
      ...toolResult('e3', 'tu1', 'contents'),
      notes: [{ kind: 'memory_saved', scope: 'project', text: 'Tests need Docker.', entryId: 'm1' }],
    }
    const plan = buildPromptPlan(baseInput({ history: [user('hi', 'e1'), assistantToolUse('e2', 'tu1', 'a'), withNote] }))
    const last = plan.messages[2]!
    expect(last.wire.content[0]!.type).toBe('tool_result')
    expect(last.wire.content[1]).toMatchObject({ type: 'text', text: expect.stringContaining('Tests need Docker.') })
    expect(last.blocks[1]!.provenance).toEqual({ kind: 'note', note: 'memory_saved', entryId: 'm1', file: '.loupe/memory.md' })
    expect(last.blocks[1]!.breakpoint).toBe('newest_tail')
  })

  it('puts a volatile section after the newest breakpoint, with its reason', () => {
    const plan = buildPromptPlan(
      baseInput({ extraSections: [{ name: 'todo_state', stability: 'volatile', placement: 'tail', text: '- [ ] fix', reason: 'the todo list changes as work goes on' }] }),
    )
    const last = plan.messages.at(-1)!
    expect(last.blocks.map((b) => [b.stability, b.breakpoint])).toEqual([
      ['session', null],
      ['history', 'newest_tail'],
      ['volatile', null],
    ])
    expect(last.blocks[2]!.provenance).toEqual({ kind: 'section', section: 'todo_state', reason: 'the todo list changes as work goes on' })
    expect(plan.fingerprints.at(-1)).toMatchObject({ section: 'todo_state', stability: 'volatile' })
  })

  it('refuses a volatile section above a breakpoint, or without a reason', () => {
    const volatileStatic = { name: 'clock', stability: 'volatile' as const, placement: 'static_block' as const, text: 'now', reason: 'time' }
    expect(codeOf(() => buildPromptPlan(baseInput({ extraSections: [volatileStatic] })))).toBe('volatile_above_breakpoint')
    expect(codeOf(() => buildPromptPlan(baseInput({ extraSections: [{ ...volatileStatic, placement: 'session_block' }] })))).toBe('volatile_above_breakpoint')
    expect(codeOf(() => buildPromptPlan(baseInput({ extraSections: [{ ...volatileStatic, placement: 'tail', reason: ' ' }] })))).toBe('volatile_without_reason')
    expect(codeOf(() => buildPromptPlan(baseInput({ extraSections: [{ ...volatileStatic, name: 'memory', placement: 'tail' }] })))).toBe('duplicate_section')
  })

  it('validatePlan catches a volatile block placed above a breakpoint by hand', () => {
    const plan = buildPromptPlan(baseInput({ history: history3, previousTailIndex: 1 }))
    const bad: PromptPlan = {
      ...plan,
      messages: plan.messages.map((m, i) => (i === 0 ? { ...m, blocks: m.blocks.map((b, j) => (j === 1 ? { ...b, stability: 'volatile' as const } : b)) } : m)),
    }
    expect(codeOf(() => validatePlan(bad))).toBe('volatile_above_breakpoint')
    expect(codeOf(() => validatePlan({ ...plan, breakpoints: [...plan.breakpoints, plan.breakpoints[0]!] }))).toBe('too_many_breakpoints')
    const ttl = [plan.breakpoints[1]!, { ...plan.breakpoints[0]!, ttl: '1h' as const }]
    expect(codeOf(() => validatePlan({ ...plan, breakpoints: ttl }))).toBe('ttl_order')
  })
})

describe('buildPromptPlan: programmer errors', () => {
  it('throws a typed PlanError for inputs the loop must never produce', () => {
    expect(codeOf(() => buildPromptPlan(baseInput({ history: [] })))).toBe('empty_history')
    expect(codeOf(() => buildPromptPlan(baseInput({ history: [assistantToolUse('e1', 't', 'a')] })))).toBe('first_message_not_user')
    expect(codeOf(() => buildPromptPlan(baseInput({ previousTailIndex: 5 })))).toBe('previous_tail_out_of_range')
    expect(codeOf(() => buildPromptPlan(baseInput({ maxTokens: 0 })))).toBe('invalid_max_tokens')
    const twice = [{ name: 'read', description: 'a', input_schema: {} }, { name: 'read', description: 'b', input_schema: {} }]
    expect(codeOf(() => buildPromptPlan(baseInput({ tools: twice })))).toBe('duplicate_tool')
    const noteOnAssistant = { ...assistantToolUse('e2', 't', 'a'), notes: [{ kind: 'text' as const, label: 'x', text: 'y', entryId: null }] }
    expect(codeOf(() => buildPromptPlan(baseInput({ history: [user('a', 'e1'), noteOnAssistant] })))).toBe('notes_on_assistant_message')
  })
})

describe('buildPromptPlan: fingerprints and re-freezing', () => {
  it('records a fingerprint per section and per instruction file', () => {
    const plan = buildPromptPlan(baseInput())
    expect(plan.fingerprints.map((f) => `${f.section}${f.part ? `/${f.part}` : ''}`)).toEqual([
      'tools',
      'base_rules',
      'identity',
      'features',
      'build_notes',
      'project_instructions',
      'project_instructions/AGENTS.md',
      'memory',
      'memory/.loupe/memory.md',
      'session_context',
    ])
  })

  it('after an apply-now edit only the session sections move, and the plan names the edit', () => {
    const input = baseInput()
    const before = buildPromptPlan(input)
    const edited = gathered({
      files: { 'AGENTS.md': { text: '# Agents\n\nRun `npm test` and `npm run lint`.' }, '.loupe/memory.md': { text: '- The user prefers tabs.' } },
      instructions: [['project', 'AGENTS.md']],
      memory: { project: '.loupe/memory.md' },
    })
    const origin = { kind: 'apply_now' as const, entryId: 'edit-7', paths: ['AGENTS.md'] }
    const session = freezeSessionSection(edited, { origin, contextWindowTokens: 200_000, skills: true })
    const after = buildPromptPlan({ ...input, session })
    const moved = after.fingerprints.filter((f, i) => f.sha256 !== before.fingerprints[i]!.sha256).map((f) => f.part ?? f.section)
    expect(moved).toEqual(['project_instructions', 'AGENTS.md'])
    expect(after.sessionOrigin).toEqual(origin)
    expect(renderRequest(after).system![0]).toEqual(renderRequest(before).system![0])
    expect(renderRequest(after).system![1]).not.toEqual(renderRequest(before).system![1])
  })

  it('hashes each section once while its frozen values stay the same', () => {
    const hasher = fakeHasher()
    const input = baseInput({ hasher })
    buildPromptPlan(input)
    const calls = hasher.calls
    expect(calls).toBeGreaterThan(0)
    for (let i = 0; i < 5; i++) buildPromptPlan({ ...input, history: [...input.history, user(`more ${i}`, `x${i}`)] })
    expect(hasher.calls).toBe(calls)
  })
})
