/**
 * The agent loop under plain Node with fakes for every port: a scripted model, an in-memory log, a recording tool
 * executor. What is checked is what the loop promises whatever happens: every tool_use ends up with a result,
 * passes and their entries are committed together, plan mode never runs a mutating tool, and a cancel or an error
 * leaves a session the API would accept.
 */
import { describe, expect, it, vi } from 'vitest'
import type { Entry, EntryBody, PassId } from '../../../src-main/engine/conversation/entries'
import { unansweredToolUses } from '../../../src-main/engine/conversation/history'
import type { PassCommit, PlannedPass, SessionLog } from '../../../src-main/engine/loop/ports'
import { PREVIEW_REFRESH_MS, PREVIEW_TIMEOUT_MS, runTurn, STOP_GRACE_MS, type TurnDeps } from '../../../src-main/engine/loop/turn'
import type { AssistantContentBlock, AssistantMessage, WireRequest } from '../../../src-main/engine/model/wire'
import type { ModelClient, ModelOutcome, ModelSendOptions } from '../../../src-main/engine/ports'
import { NO_RULES, type PermissionMode } from '../../../src-main/engine/tools/permissions'
import { emptyToolSessionState } from '../../../src-main/engine/tools/session-state'
import type { ToolCallRequest, ToolExecutor, ToolOutcome } from '../../../src-main/engine/tools/executor'
import type { PromptPlan } from '../../../src-main/engine/prompt/plan'

class MemoryLog implements SessionLog {
  readonly all: Entry[] = []
  readonly passes: PassCommit[] = []
  private seq = 0
  entries(): ReadonlyArray<Entry> {
    return this.all
  }
  append(bodies: ReadonlyArray<EntryBody>): ReadonlyArray<Entry> {
    const made = bodies.map((b) => ({ ...b, id: `e${++this.seq}`, sessionId: 's', seq: this.seq, at: this.seq }) as Entry)
    this.all.push(...made)
    return made
  }
  commitPass(pass: PassCommit, makeEntries: (passId: PassId) => ReadonlyArray<EntryBody>) {
    this.passes.push(pass)
    const passId = `p${this.passes.length}` as PassId
    return { passId, entries: this.append(makeEntries(passId)) }
  }
}

const use = (id: string, name: string, input: unknown): AssistantContentBlock => ({ type: 'tool_use', id, name, input })
const text = (t: string): AssistantContentBlock => ({ type: 'text', text: t })

function message(content: AssistantContentBlock[], stop: AssistantMessage['stop_reason'] = 'tool_use'): AssistantMessage {
  return { id: 'msg', model: 'm', content, stop_reason: stop, usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } }
}

type Step = AssistantMessage | ((options: ModelSendOptions) => Promise<ModelOutcome>)

/** A model that answers each pass with the next scripted step; after the script, it ends the turn. */
function scriptedModel(steps: Step[]): ModelClient & { requests: WireRequest[] } {
  const requests: WireRequest[] = []
  return {
    requests,
    endpoint: { kind: 'simulator', baseUrl: 'http://fake' },
    countTokens: async () => 0,
    async send(request, options) {
      requests.push(request)
      const step = steps.shift() ?? message([text('Done.')], 'end_turn')
      if (typeof step === 'function') return step(options)
      return { ok: true, message: step, attempts: [] }
    },
  }
}

function recordingTools(run: (call: ToolCallRequest, signal: AbortSignal) => Promise<ToolOutcome> = async () => ({ kind: 'ok', content: 'ok', effects: [] })) {
  const calls: string[] = []
  let active = 0
  let maxActive = 0
  const executor: ToolExecutor = {
    async execute(call, ctx) {
      calls.push(call.name)
      active++
      maxActive = Math.max(maxActive, active)
      try {
        return await run(call, ctx.signal)
      } finally {
        active--
      }
    },
  }
  return { executor, calls, maxActive: () => maxActive }
}

const planner = { plan: (): PlannedPass => ({ request: { model: 'm', max_tokens: 10, messages: [] }, plan: {} as PromptPlan }) }

function deps(model: ModelClient, tools: ToolExecutor, log: MemoryLog, mode: PermissionMode = 'build', answer: 'once' | 'deny' = 'once'): TurnDeps {
  let state = emptyToolSessionState()
  let rules = NO_RULES
  return {
    model,
    tools,
    log,
    planner,
    approvals: { ask: async () => (answer === 'once' ? { kind: 'once' } : { kind: 'deny', reason: 'not now' }) },
    controls: { root: '/project', mode: () => mode, rules: () => rules, setRules: (r) => (rules = r), toolState: () => state, setToolState: (s) => (state = s) },
    clock: { now: () => 0 },
    emit: () => {},
  }
}

/** What the API requires of the history: every tool_use answered; entries in order. */
function expectValid(log: MemoryLog): void {
  expect(unansweredToolUses(log.all)).toEqual([])
  expect(log.all.map((e) => e.seq)).toEqual(log.all.map((_, i) => i + 1))
}

describe('runTurn', () => {
  it('runs tool round trips, reads in parallel and writes alone, each pass committed with its entries', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const tools = recordingTools(async (call) => {
      // Both reads must be running at once for this to resolve.
      if (call.name === 'read_file') {
        if (tools.calls.filter((c) => c === 'read_file').length === 2) release()
        await gate
      }
      return { kind: 'ok', content: `${call.name} ok`, effects: [] }
    })
    const model = scriptedModel([
      message([text('Reading two files.'), use('t1', 'read_file', { path: 'a.ts' }), use('t2', 'read_file', { path: 'b.ts' })]),
      message([use('t3', 'write_file', { path: 'c.ts', content: 'x' })]),
    ])
    const log = new MemoryLog()
    const result = await runTurn(deps(model, tools.executor, log), { kind: 'message', text: 'go' }, new AbortController().signal)
    expect(result).toEqual({ reason: 'end_turn', passes: 3 })
    expect(tools.maxActive()).toBe(2)
    expect(tools.calls).toEqual(['read_file', 'read_file', 'write_file'])
    expect(log.passes.map((p) => p.status)).toEqual(['done', 'done', 'done'])
    expect(log.all.filter((e) => e.kind === 'approval')).toHaveLength(1)
    expectValid(log)
  })

  it('ends the turn on a refusal: a call the refused answer began is not run, and gets a result', async () => {
    const tools = recordingTools()
    const model = scriptedModel([message([text('I can'), use('t1', 'bash', { command: 'curl' })], 'refusal')])
    const log = new MemoryLog()
    const result = await runTurn(deps(model, tools.executor, log, 'auto'), { kind: 'message', text: 'go' }, new AbortController().signal)
    expect(result).toEqual({ reason: 'refusal', passes: 1 })
    expect(tools.calls).toEqual([])
    expect(log.all.filter((e) => e.kind === 'tool_result').map((r) => [r.toolUseId, r.outcome])).toEqual([['t1', 'invalid']])
    expect(log.all.at(-1)).toMatchObject({ kind: 'turn_ended', reason: 'refusal' })
    expectValid(log)
  })

  it('does not run the tool call an answer stopped in at the output limit: the calls before it run, and the turn goes on', async () => {
    const tools = recordingTools()
    const model = scriptedModel([
      // The last block was being written when the output ran out: its input parses, but may be only part of it.
      message([use('t1', 'read_file', { path: 'a.ts' }), use('t2', 'bash', { command: 'rm -rf build' })], 'max_tokens'),
      message([text('Done.')], 'end_turn'),
    ])
    const log = new MemoryLog()
    const result = await runTurn(deps(model, tools.executor, log, 'auto'), { kind: 'message', text: 'go' }, new AbortController().signal)
    expect(result).toEqual({ reason: 'end_turn', passes: 2 })
    expect(tools.calls).toEqual(['read_file'])
    const results = log.all.filter((e) => e.kind === 'tool_result')
    expect(results.map((r) => [r.toolUseId, r.outcome, r.isError])).toEqual([
      ['t1', 'ran', false],
      ['t2', 'invalid', true],
    ])
    expect(results[1]!.content).toBe('Not run: your answer reached the output limit of 10 tokens while writing this bash call, so its input may be cut short. Make the call again; if its input is long (a whole file\'s text), write it in parts: a shorter file first, then edits that add the rest.')
    expectValid(log)
  })

  it('takes no first byte from the client\'s word that it waits to send again, only from what the service sent', async () => {
    let now = 0
    const model = scriptedModel([
      async (options) => {
        now = 100
        options.onEvent?.({ type: 'retrying', kind: 'rate_limited', message: 'rate_limit_error: slow down', retry: 1, retries: 2, status: 429, waitMs: 60_000 })
        now = 60_200
        options.onEvent?.({ type: 'message_started', messageId: 'msg', model: 'm' })
        return { ok: true, message: message([text('Done.')], 'end_turn'), attempts: [] }
      },
    ])
    const log = new MemoryLog()
    await runTurn({ ...deps(model, recordingTools().executor, log), clock: { now: () => now } }, { kind: 'message', text: 'hi' }, new AbortController().signal)
    expect(log.passes[0]!.firstByteAt).toBe(60_200)
  })

  it("ends the turn as cut by the context window when an answer with no call filled it, not as a complete answer", async () => {
    const model = scriptedModel([message([text('The first half of a long answer')], 'model_context_window_exceeded')])
    const log = new MemoryLog()
    const result = await runTurn(deps(model, recordingTools().executor, log), { kind: 'message', text: 'explain' }, new AbortController().signal)
    expect(result).toEqual({ reason: 'context_window', passes: 1 })
    expect(log.all.at(-1)).toMatchObject({ kind: 'turn_ended', reason: 'context_window' })
    expectValid(log)
  })

  it('does not run the tool call an answer stopped in when the context window filled', async () => {
    const tools = recordingTools()
    const model = scriptedModel([message([use('t1', 'read_file', { path: 'a.ts' }), use('t2', 'write_file', { path: 'b.ts', content: 'half' })], 'model_context_window_exceeded'), message([text('Done.')], 'end_turn')])
    const log = new MemoryLog()
    await runTurn(deps(model, tools.executor, log, 'auto'), { kind: 'message', text: 'go' }, new AbortController().signal)
    expect(tools.calls).toEqual(['read_file'])
    const cut = log.all.find((e) => e.kind === 'tool_result' && e.toolUseId === 't2')
    expect(cut).toMatchObject({ outcome: 'invalid', isError: true })
    expect(String(cut?.kind === 'tool_result' && cut.content)).toMatch(/^Not run: your answer reached the model's context window while writing this write_file call/)
    expectValid(log)
  })

  it.each(['edit_file', 'write_file', 'bash', 'remember'] as const)('plan mode denies %s without running it or asking', async (tool) => {
    const inputs = {
      edit_file: { path: 'a.ts', old_string: 'a', new_string: 'b' },
      write_file: { path: 'a.ts', content: 'x' },
      bash: { command: 'ls' },
      remember: { fact: 'x', scope: 'project' },
    }
    const tools = recordingTools()
    const log = new MemoryLog()
    let asked = false
    const d = deps(scriptedModel([message([use('t1', tool, inputs[tool])])]), tools.executor, log, 'plan')
    await runTurn({ ...d, approvals: { ask: async () => ((asked = true), { kind: 'once' }) } }, { kind: 'message', text: 'change it' }, new AbortController().signal)
    expect(tools.calls).toEqual([])
    expect(asked).toBe(false)
    const result = log.all.find((e) => e.kind === 'tool_result')
    // Refused by plan mode, not by the user: recorded as blocked, so the chat does not say the user denied it.
    expect(result).toMatchObject({ isError: true, outcome: 'blocked' })
    expectValid(log)
  })

  it("asks with the executor's preview of what the call would change, made after the calls before it ran", async () => {
    const order: string[] = []
    const preview = { path: 'c.ts', created: true, added: 1, removed: 0, hunks: [{ oldStart: 0, newStart: 1, lines: [{ kind: 'added' as const, text: 'x' }] }], omitted: 0, note: null }
    // The write reports what it changed: the result entry keeps it for the chat.
    const tools = recordingTools(async (call) => (order.push(`run ${call.name}`), { kind: 'ok', content: 'ok', effects: [], ...(call.name === 'write_file' ? { change: preview } : {}) }))
    tools.executor.preview = async (call) => (order.push(`preview ${call.name}`), call.name === 'write_file' ? preview : null)
    const events: unknown[] = []
    const asked: unknown[] = []
    const log = new MemoryLog()
    const d = deps(scriptedModel([message([use('t1', 'read_file', { path: 'a.ts' }), use('t2', 'write_file', { path: 'c.ts', content: 'x' }), use('t3', 'bash', { command: 'ls' })])]), tools.executor, log)
    await runTurn(
      { ...d, emit: (e) => void events.push(e), approvals: { ask: async (_id, request) => (asked.push(request), { kind: 'once' }) } },
      { kind: 'message', text: 'go' },
      new AbortController().signal,
    )
    expect(order).toEqual(['run read_file', 'preview write_file', 'run write_file', 'preview bash', 'run bash'])
    expect(asked).toEqual([expect.objectContaining({ tool: 'write_file', preview }), expect.not.objectContaining({ preview: expect.anything() })])
    expect(events).toContainEqual({ type: 'approval_requested', toolUseId: 't2', request: expect.objectContaining({ preview }) })
    const results = log.all.filter((e) => e.kind === 'tool_result')
    expect(results.map((e) => ('change' in e ? e.change : undefined))).toEqual([undefined, preview, undefined])
    expectValid(log)
  })

  it('makes the preview again when its file changes on disk while the approval waits, and asks again with it until answered', async () => {
    const first = { path: 'c.ts', created: false, added: 1, removed: 1, hunks: [], omitted: 0, note: null }
    const second = { ...first, added: 2 }
    let current = first
    const tools = recordingTools()
    tools.executor.preview = async () => current
    let changed: () => void = () => {}
    let watching = 0
    tools.executor.watchPreview = (shown, onChange) => {
      expect(shown.path).toBe('c.ts')
      watching++
      changed = onChange
      return () => void watching--
    }
    const events: Array<{ type: string; request?: unknown }> = []
    const updates: unknown[] = []
    let answer!: (a: { kind: 'once' }) => void
    let asked!: () => void
    const askedOnce = new Promise<void>((r) => (asked = r))
    const log = new MemoryLog()
    const d = deps(scriptedModel([message([use('t1', 'edit_file', { path: 'c.ts', old_string: 'a', new_string: 'b' })])]), tools.executor, log)
    vi.useFakeTimers()
    try {
      const running = runTurn(
        {
          ...d,
          emit: (e) => void events.push(e),
          approvals: {
            ask: () => new Promise((resolve) => ((answer = resolve), asked())),
            update: (_id, request) => (updates.push(request), true),
          },
        },
        { kind: 'message', text: 'go' },
        new AbortController().signal,
      )
      await askedOnce
      expect(watching).toBe(1)
      // The user edits the file: several events in a burst make one new preview.
      current = second
      changed()
      changed()
      await vi.advanceTimersByTimeAsync(PREVIEW_REFRESH_MS)
      expect(updates).toEqual([expect.objectContaining({ preview: second })])
      const asks = events.filter((e) => e.type === 'approval_requested')
      expect(asks.map((e) => (e.request as { preview: unknown }).preview)).toEqual([first, second])
      // A change that leaves the preview as it is (a touch, a save of the same text) asks nothing again.
      changed()
      await vi.advanceTimersByTimeAsync(PREVIEW_REFRESH_MS)
      expect(updates).toHaveLength(1)
      answer({ kind: 'once' })
      await running
      // Answered: no longer watched, and a late change asks nothing.
      expect(watching).toBe(0)
      changed()
      await vi.advanceTimersByTimeAsync(PREVIEW_REFRESH_MS)
      expect(updates).toHaveLength(1)
      expect(tools.calls).toEqual(['edit_file'])
    } finally {
      vi.useRealTimers()
    }
  })

  it("does not ask about a call its own checks will refuse: the agent gets the tool's error at once, and nothing runs", async () => {
    const tools = recordingTools()
    const ambiguous: ToolOutcome = { kind: 'error', code: 'ambiguous_match', content: 'old_string occurs 3 times in file.ts; add context to make it unique.', effects: [] }
    tools.executor.refusal = async (call) => (call.id === 't1' ? ambiguous : null)
    tools.executor.preview = async () => ({ path: 'b.ts', created: false, added: 1, removed: 1, hunks: [], omitted: 0, note: null })
    const asked: string[] = []
    const events: Array<{ type: string }> = []
    const log = new MemoryLog()
    const calls = [use('t1', 'edit_file', { path: 'file.ts', old_string: 'a', new_string: 'b' }), use('t2', 'edit_file', { path: 'b.ts', old_string: 'x', new_string: 'y' })]
    const d = deps(scriptedModel([message(calls)]), tools.executor, log)
    await runTurn({ ...d, emit: (e) => void events.push(e), approvals: { ask: async (id) => (asked.push(id), { kind: 'once' }) } }, { kind: 'message', text: 'go' }, new AbortController().signal)
    // Only the call that would change something was asked about, and only it ran.
    expect(asked).toEqual(['t2'])
    expect(tools.calls).toEqual(['edit_file'])
    const results = log.all.filter((e) => e.kind === 'tool_result')
    expect(results[0]).toMatchObject({ toolUseId: 't1', isError: true, outcome: 'ran', content: ambiguous.content })
    expect(log.all.filter((e) => e.kind === 'approval').map((e) => ('toolUseId' in e ? e.toolUseId : null))).toEqual(['t2'])
    // The chat shows the call start and end, as for any call.
    expect(events.filter((e) => e.type === 'tool_started' || e.type === 'tool_finished')).toContainEqual({ type: 'tool_finished', toolUseId: 't1', name: 'edit_file', isError: true })
    expectValid(log)

    // A check that fails or hangs asks as usual: the call then meets its own checks when it runs.
    const broken = recordingTools()
    broken.executor.refusal = () => {
      throw new Error('disk gone')
    }
    const asked1: string[] = []
    const d1 = deps(scriptedModel([message([use('t1', 'edit_file', { path: 'file.ts', old_string: 'a', new_string: 'b' })])]), broken.executor, new MemoryLog())
    await runTurn({ ...d1, approvals: { ask: async (id) => (asked1.push(id), { kind: 'once' }) } }, { kind: 'message', text: 'go' }, new AbortController().signal)
    expect(asked1).toEqual(['t1'])
    expect(broken.calls).toEqual(['edit_file'])
  })

  it('asks without a preview when the preview fails or hangs, and a Stop while it is made ends the turn without asking', async () => {
    const tools = recordingTools()
    // Thrown, not rejected: an executor's bug must not end the turn.
    tools.executor.preview = () => {
      throw new Error('disk gone')
    }
    const asked: unknown[] = []
    const log = new MemoryLog()
    const d = deps(scriptedModel([message([use('t1', 'write_file', { path: 'c.ts', content: 'x' })])]), tools.executor, log)
    await runTurn({ ...d, approvals: { ask: async (_id, request) => (asked.push(request), { kind: 'once' }) } }, { kind: 'message', text: 'go' }, new AbortController().signal)
    expect(asked).toEqual([expect.not.objectContaining({ preview: expect.anything() })])
    expect(tools.calls).toEqual(['write_file'])

    vi.useFakeTimers()
    try {
      const stalled = recordingTools()
      stalled.executor.preview = () => new Promise(() => {})
      const asked1: unknown[] = []
      const d1 = deps(scriptedModel([message([use('t1', 'write_file', { path: 'c.ts', content: 'x' })])]), stalled.executor, new MemoryLog())
      const running = runTurn({ ...d1, approvals: { ask: async (_id, request) => (asked1.push(request), { kind: 'once' }) } }, { kind: 'message', text: 'go' }, new AbortController().signal)
      await vi.advanceTimersByTimeAsync(PREVIEW_TIMEOUT_MS)
      await running
      expect(asked1).toEqual([expect.not.objectContaining({ preview: expect.anything() })])
      expect(stalled.calls).toEqual(['write_file'])
    } finally {
      vi.useRealTimers()
    }

    const stop = new AbortController()
    const hanging = recordingTools()
    hanging.executor.preview = () => (stop.abort(), new Promise(() => {}))
    const asked2: unknown[] = []
    const log2 = new MemoryLog()
    const d2 = deps(scriptedModel([message([use('t1', 'write_file', { path: 'c.ts', content: 'x' })])]), hanging.executor, log2)
    await runTurn({ ...d2, approvals: { ask: async (_id, request) => (asked2.push(request), { kind: 'once' }) } }, { kind: 'message', text: 'go' }, stop.signal)
    expect(asked2).toEqual([])
    expect(hanging.calls).toEqual([])
    expectValid(log2)
  })

  it('gives a denied call a result the model can act on, with the reason', async () => {
    const tools = recordingTools()
    const log = new MemoryLog()
    await runTurn(deps(scriptedModel([message([use('t1', 'bash', { command: 'npm test' })])]), tools.executor, log, 'build', 'deny'), { kind: 'message', text: 'test' }, new AbortController().signal)
    expect(tools.calls).toEqual([])
    const result = log.all.find((e) => e.kind === 'tool_result') as Extract<Entry, { kind: 'tool_result' }>
    expect(result.outcome).toBe('denied')
    expect(result.content).toContain('not now')
    expectValid(log)
  })

  it('keeps partial text and closes open tool calls when the user stops mid-stream', async () => {
    const controller = new AbortController()
    const model = scriptedModel([
      async (options) => {
        controller.abort()
        expect(options.signal?.aborted).toBe(true)
        return {
          ok: false,
          error: { kind: 'aborted', message: 'stopped', status: null },
          partial: message([text('Half an ans'), use('t1', 'read_file', { path: 'a.ts' })], null),
          attempts: [],
        }
      },
    ])
    const log = new MemoryLog()
    const result = await runTurn(deps(model, recordingTools().executor, log), { kind: 'message', text: 'go' }, controller.signal)
    expect(result.reason).toBe('cancelled')
    expect(log.passes[0]!.status).toBe('cancelled')
    const assistant = log.all.find((e) => e.kind === 'assistant_message') as Extract<Entry, { kind: 'assistant_message' }>
    expect(assistant.partial).toBe(true)
    expect(log.all.find((e) => e.kind === 'tool_result')).toMatchObject({ toolUseId: 't1', outcome: 'interrupted' })
    expectValid(log)
  })

  it('ends the turn on stop even when a tool never ends (a read that blocks), giving the call its result', async () => {
    vi.useFakeTimers()
    try {
      const controller = new AbortController()
      // The tool ignores the signal and never settles.
      const tools = recordingTools(() => {
        controller.abort()
        return new Promise<ToolOutcome>(() => {})
      })
      const model = scriptedModel([message([use('t1', 'read_file', { path: 'fifo' })])])
      const log = new MemoryLog()
      const running = runTurn(deps(model, tools.executor, log, 'auto'), { kind: 'message', text: 'go' }, controller.signal)
      await vi.advanceTimersByTimeAsync(STOP_GRACE_MS)
      const result = await running
      expect(result.reason).toBe('cancelled')
      expect(log.all.find((e) => e.kind === 'tool_result')).toMatchObject({ toolUseId: 't1', outcome: 'interrupted' })
      expectValid(log)
    } finally {
      vi.useRealTimers()
    }
  })

  it('closes every call of the message when the user stops in the middle of a tool', async () => {
    const controller = new AbortController()
    const tools = recordingTools(
      (call, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => resolve({ kind: 'error', code: 'aborted', content: 'killed', effects: [] }))
          if (call.name === 'bash') controller.abort()
        }),
    )
    const model = scriptedModel([message([use('t1', 'bash', { command: 'sleep 100' }), use('t2', 'write_file', { path: 'x', content: 'y' })])])
    const log = new MemoryLog()
    const result = await runTurn(deps(model, tools.executor, log, 'auto'), { kind: 'message', text: 'go' }, controller.signal)
    expect(result.reason).toBe('cancelled')
    expect(tools.calls).toEqual(['bash'])
    const results = log.all.filter((e) => e.kind === 'tool_result') as Array<Extract<Entry, { kind: 'tool_result' }>>
    expect(results.map((r) => [r.toolUseId, r.outcome])).toEqual([
      ['t1', 'interrupted'],
      ['t2', 'interrupted'],
    ])
    expectValid(log)
  })

  it('says a refused request would be refused again, and what to do', async () => {
    const refused: Step = async () => ({ ok: false, error: { kind: 'invalid_request', message: 'invalid_request_error: prompt is too long: 302645 tokens > 200000 maximum', status: 400 }, partial: null, attempts: [] })
    const log = new MemoryLog()
    await runTurn(deps(scriptedModel([refused]), recordingTools().executor, log), { kind: 'message', text: 'hello' }, new AbortController().signal)
    expect(log.all.find((e) => e.kind === 'turn_failed')).toMatchObject({
      errorKind: 'invalid_request',
      message:
        "The model service refused the request (HTTP 400): invalid_request_error: prompt is too long: 302645 tokens > 200000 maximum. Nothing was lost, but the same request would be refused again: it is longer than the model's context window. Take back your last message to shorten it, or /compact the conversation before it.",
    })
    // Refused for another reason, the way on is the same message changed: a compaction would not touch it.
    const malformed: Step = async () => ({ ok: false, error: { kind: 'invalid_request', message: 'invalid_request_error: messages.0.content.0.text: text content blocks must be non-empty', status: 400 }, partial: null, attempts: [] })
    const other = new MemoryLog()
    await runTurn(deps(scriptedModel([malformed]), recordingTools().executor, other), { kind: 'message', text: 'hello' }, new AbortController().signal)
    expect(other.all.find((e) => e.kind === 'turn_failed')).toMatchObject({
      message: 'The model service refused the request (HTTP 400): invalid_request_error: messages.0.content.0.text: text content blocks must be non-empty. Nothing was lost, but the same request would be refused again as it is: take back your last message to change it.',
    })
  })

  it('ends the turn with a retryable failure after a model error, and a retry goes on from the same entries', async () => {
    const failing: Step = async () => ({ ok: false, error: { kind: 'overloaded', message: 'Overloaded.', status: 529 }, partial: null, attempts: [] })
    const log = new MemoryLog()
    const model = scriptedModel([failing])
    const first = await runTurn(deps(model, recordingTools().executor, log), { kind: 'message', text: 'hello' }, new AbortController().signal)
    expect(first.reason).toBe('error')
    // The service's own full stop is not doubled.
    expect(log.all.find((e) => e.kind === 'turn_failed')).toMatchObject({ retryable: true, errorKind: 'overloaded', message: 'The model service is overloaded (HTTP 529): Overloaded. Nothing was lost; retry when ready.' })
    expect(log.passes[0]!.status).toBe('failed')
    const second = await runTurn(deps(model, recordingTools().executor, log), { kind: 'retry' }, new AbortController().signal)
    expect(second.reason).toBe('end_turn')
    expect(log.all.filter((e) => e.kind === 'user_message')).toHaveLength(1)
    expectValid(log)
  })

  it('repairs a session left with an unanswered call (after a crash) before sending', async () => {
    const log = new MemoryLog()
    log.append([
      { kind: 'user_message', content: [{ type: 'text', text: 'hi' }] },
      { kind: 'assistant_message', passId: 'p0' as PassId, content: [use('old', 'bash', { command: 'make' })], stopReason: 'tool_use', partial: false },
    ])
    await runTurn(deps(scriptedModel([]), recordingTools().executor, log), { kind: 'message', text: 'go on' }, new AbortController().signal)
    expect(log.all.find((e) => e.kind === 'tool_result')).toMatchObject({ toolUseId: 'old', outcome: 'interrupted' })
    expectValid(log)
  })

  it('stops at the pass limit', async () => {
    const forever: Step[] = Array.from({ length: 10 }, (_, i) => message([use(`t${i}`, 'read_file', { path: 'a' })]))
    const log = new MemoryLog()
    const result = await runTurn({ ...deps(scriptedModel(forever), recordingTools().executor, log), maxPasses: 3 }, { kind: 'message', text: 'loop' }, new AbortController().signal)
    expect(result).toEqual({ reason: 'pass_limit', passes: 3 })
    expectValid(log)
  })
})
