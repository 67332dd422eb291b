/**
 * One turn of the agent: the user's input, then passes until the model ends its turn, the user stops it, a model
 * error survives the client's retries, or the pass limit is reached.
 *
 * Invariants the loop keeps, whatever happens (tested in test/engine/loop/):
 * - every entry a pass depends on is committed before the pass is sent;
 * - a pass and the entries it produced are committed together;
 * - every tool_use gets a tool_result entry (run, denied, invalid or interrupted), so the session is always valid
 *   for the API, after a cancel as after an error;
 * - compaction is checked at the start of every pass (`CompactionHook.beforePass`): its checkpoint is committed
 *   before the pass that depends on it is planned, and a cancelled or failed compaction changes no entry the model
 *   sees.
 */
import type { Entry, EntryBody } from '../conversation/entries'
import { INTERRUPTED_RESULT, unansweredToolUses } from '../conversation/history'
import type { AssistantContentBlock, ToolUseBlock } from '../model/wire'
import type { Clock, ModelClient, ModelOutcome } from '../ports'
import { decidePermission, resolveApproval, type ApprovalRequest, type DenyCode, type PermissionDecision } from '../tools/permissions'
import { applyToolEffects } from '../tools/session-state'
import { getToolSpec } from '../tools/specs'
import { deniedOutcome, errorOutcome, type ToolExecutor, type ToolOutcome } from '../tools/executor'
import type { ToolEffect } from '../tools/types'
import type { ContextNote } from '../prompt/notes'
import { describeModelError } from './model-failure'
import type { Approvals, CompactionHook, ContextNotes, LoopEvent, PassPlanner, SessionControls, SessionLog } from './ports'

/** Passes one turn may take before the loop stops and hands back to the user. */
export const DEFAULT_MAX_PASSES_PER_TURN = 25

export interface TurnDeps {
  readonly model: ModelClient
  readonly tools: ToolExecutor
  readonly log: SessionLog
  readonly planner: PassPlanner
  readonly approvals: Approvals
  readonly controls: SessionControls
  readonly clock: Clock
  readonly emit: (event: LoopEvent) => void
  readonly notes?: ContextNotes
  /** Compaction before each pass and the `compact` tool; without it, `compact` calls fail as not executable. */
  readonly compaction?: CompactionHook
  readonly maxPasses?: number
}

/**
 * What starts a turn. `notes` are after-the-breakpoint notes delivered with the user's message (an instruction
 * file changed on disk since the session block was frozen …).
 */
export type TurnInput = { readonly kind: 'message'; readonly text: string; readonly notes?: ReadonlyArray<ContextNote> } | { readonly kind: 'retry' }

export type TurnResult = { readonly reason: 'end_turn' | 'cancelled' | 'pass_limit' | 'error' | 'max_tokens' | 'context_window' | 'refusal'; readonly passes: number }

export async function runTurn(deps: TurnDeps, input: TurnInput, signal: AbortSignal): Promise<TurnResult> {
  const append = (bodies: ReadonlyArray<EntryBody>): ReadonlyArray<Entry> => {
    if (bodies.length === 0) return []
    const entries = deps.log.append(bodies)
    deps.emit({ type: 'entries_appended', entries })
    return entries
  }
  const end = (reason: TurnResult['reason'], passes: number): TurnResult => {
    append([{ kind: 'turn_ended', reason }])
    return { reason, passes }
  }
  // A refused answer's tool calls get a result each, so the history stays one the API accepts, and none is run.
  const endRefused = (content: ReadonlyArray<AssistantContentBlock>, passes: number): TurnResult => {
    append(content.filter((b): b is ToolUseBlock => b.type === 'tool_use').map((use) => ({ kind: 'tool_result' as const, toolUseId: use.id, toolName: use.name, content: REFUSED_RESULT, isError: true, outcome: 'invalid' as const })))
    return end('refusal', passes)
  }

  // A session left with unanswered tool calls (a crash, a kill) is repaired before anything is sent.
  append(unansweredToolUses(deps.log.entries()).map((c) => interrupted(c.id, c.name)))
  if (input.kind === 'message') {
    append([{ kind: 'user_message', content: [{ type: 'text', text: input.text }], ...(input.notes?.length ? { notes: input.notes } : {}) }])
  }

  const maxPasses = deps.maxPasses ?? DEFAULT_MAX_PASSES_PER_TURN
  for (let passNumber = 1; passNumber <= maxPasses; passNumber++) {
    if (signal.aborted) return end('cancelled', passNumber - 1)
    // Compaction is checked at the start of every pass, on the entries every earlier pass committed.
    if (deps.compaction) {
      await deps.compaction.beforePass(signal)
      if (signal.aborted) return end('cancelled', passNumber - 1)
    }
    const { request, plan } = deps.planner.plan(deps.log.entries())
    const queuedAt = deps.clock.now()
    let firstByteAt: number | null = null
    deps.emit({ type: 'pass_started', passNumber, model: request.model, requestBytes: 0 })
    const previousMessageId = deps.controls.lastMessageId?.() ?? null
    const outcome: ModelOutcome = await deps.model.send(request, {
      signal,
      ...(previousMessageId ? { previousMessageId } : {}),
      onEvent: (event) => {
        // A `retrying` event is the client's, not the service's: a refusal's wait is not a first byte.
        if (event.type !== 'retrying') firstByteAt ??= deps.clock.now()
        deps.emit({ type: 'stream', event })
      },
    })
    const doneAt = deps.clock.now()
    // What answered: its answer is that service's (a key saved or forgotten meanwhile changes only later passes).
    const endpoint = outcome.endpoint ?? deps.model.endpoint
    const service = endpoint.kind
    const lastAttempt = outcome.attempts.at(-1)
    firstByteAt = lastAttempt?.firstByteAt ?? firstByteAt

    if (!outcome.ok) {
      const cancelled = outcome.error.kind === 'aborted' || signal.aborted
      const partial = outcome.partial
      const kept = partial ? keepablePartial(partial.content) : []
      const committed = deps.log.commitPass(
        { kind: 'main', model: request.model, status: cancelled ? 'cancelled' : 'failed', queuedAt, firstByteAt, doneAt, plan, attempts: outcome.attempts, message: partial, error: { kind: outcome.error.kind, message: outcome.error.message } },
        (passId) => {
          const bodies: EntryBody[] = []
          if (kept.length > 0) {
            bodies.push({ kind: 'assistant_message', passId, content: kept, stopReason: null, partial: true, service })
            for (const use of kept.filter((b): b is ToolUseBlock => b.type === 'tool_use')) bodies.push(interrupted(use.id, use.name))
          }
          if (!cancelled) bodies.push({ kind: 'turn_failed', message: describeModelError(outcome.error, endpoint, outcome.attempts, request.model, doneAt), errorKind: outcome.error.kind, retryable: true })
          return bodies
        },
      )
      deps.emit({ type: 'pass_committed', passId: committed.passId, status: cancelled ? 'cancelled' : 'failed' })
      deps.emit({ type: 'entries_appended', entries: committed.entries })
      return end(cancelled ? 'cancelled' : 'error', passNumber)
    }

    const message = outcome.message
    const committed = deps.log.commitPass(
      { kind: 'main', model: request.model, status: 'done', queuedAt, firstByteAt, doneAt, plan, attempts: outcome.attempts, message, error: null },
      (passId) => [{ kind: 'assistant_message', passId, content: message.content, stopReason: message.stop_reason, partial: false, service }],
    )
    deps.emit({ type: 'pass_committed', passId: committed.passId, status: 'done' })
    deps.emit({ type: 'entries_appended', entries: committed.entries })

    // The model declined (its safety classifier stopped the answer): no call it began is run, and the turn says so.
    if (message.stop_reason === 'refusal') return endRefused(message.content, passNumber)
    const toolUses = message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use')
    // An answer cut short, by the output limit or by the context window filling, ends the turn saying which.
    if (toolUses.length === 0) return end(message.stop_reason === 'max_tokens' ? 'max_tokens' : message.stop_reason === 'model_context_window_exceeded' ? 'context_window' : 'end_turn', passNumber)

    await runToolCalls(deps, toolUses, signal, append, cutOffCall(message.content, message.stop_reason, request.max_tokens))
    if (signal.aborted) return end('cancelled', passNumber)
  }
  return end('pass_limit', maxPasses)
}

/**
 * The tool call an answer stopped in: when the model ran out of output (`max_tokens`, or the context window filled),
 * the block it was writing is the last, and a tool call there may hold only part of its input — a file's text cut
 * halfway, a command cut at an argument. It is not run: its result tells the model why, and the turn goes on. The
 * calls before it were finished before the next block began, and run as usual.
 */
function cutOffCall(content: ReadonlyArray<AssistantContentBlock>, stopReason: string | null, maxTokens: number): { readonly id: string; readonly result: string } | null {
  if (stopReason !== 'max_tokens' && stopReason !== 'model_context_window_exceeded') return null
  const last = content.at(-1)
  if (last?.type !== 'tool_use') return null
  const limit = stopReason === 'max_tokens' ? `the output limit of ${maxTokens.toLocaleString('en-US')} tokens` : "the model's context window"
  return {
    id: last.id,
    result: `Not run: your answer reached ${limit} while writing this ${last.name} call, so its input may be cut short. Make the call again; if its input is long (a whole file's text), write it in parts: a shorter file first, then edits that add the rest.`,
  }
}

const REFUSED_RESULT = 'Not run: the answer that made this call was stopped as a refusal.'

/** What of a cut stream is worth keeping: text and thinking that arrived, and tool calls whose input is complete. */
function keepablePartial(content: ReadonlyArray<AssistantContentBlock>): AssistantContentBlock[] {
  return content.filter((b) => {
    if (b.type === 'text') return b.text.length > 0
    // A thinking block without its signature cannot be sent back (the API rejects it).
    if (b.type === 'thinking') return b.signature.length > 0
    return true
  })
}

function interrupted(toolUseId: string, toolName: string): EntryBody {
  return { kind: 'tool_result', toolUseId, toolName, content: INTERRUPTED_RESULT, isError: true, outcome: 'interrupted' }
}

/** How long a tool has to end on its own once the user stops the turn, before the turn ends without it. */
export const STOP_GRACE_MS = 2_000

/**
 * A tool's outcome, or — when the user stops the turn and the tool has not ended within STOP_GRACE_MS (a read that
 * blocks, a tool that ignores the signal) — an `aborted` result in its place, so Stop always ends the turn and the
 * call still gets its result. Tools end on the signal themselves; this is the backstop.
 */
function untilStopped(running: Promise<ToolOutcome>, signal: AbortSignal): Promise<ToolOutcome> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | null = null
    const onAbort = () => {
      timer = setTimeout(
        () => resolve(errorOutcome('aborted', `Stopped by the user; the tool had not ended ${STOP_GRACE_MS / 1000} s later and may still finish in the background.`)),
        STOP_GRACE_MS,
      )
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    running.then(resolve, reject).finally(() => {
      signal.removeEventListener('abort', onAbort)
      if (timer !== null) clearTimeout(timer)
    })
  })
}

/** How long a change preview may take (a file on a stalled network drive) before the user is asked without one. */
export const PREVIEW_TIMEOUT_MS = 5_000

/**
 * The approval request with what the call would change (edit_file, write_file), from the executor's preview: made
 * by the same checks as the call, after the calls before it have run, so it shows the file as the call will find
 * it. A preview that fails or takes longer than PREVIEW_TIMEOUT_MS, or a Stop while it is made, asks without one.
 */
async function withPreview(deps: TurnDeps, call: ToolUseBlock, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalRequest> {
  const preview = deps.tools.preview?.bind(deps.tools)
  if (preview === undefined) return request
  const made = await beforeAsking(() => preview({ id: call.id, name: call.name, input: call.input }, { signal, sessionState: deps.controls.toolState() }), signal)
  return made === null ? request : { ...request, preview: made }
}

/**
 * The error the call's own checks give it as things stand (the executor's `refusal`), or null: such a call is not
 * asked about, as allowing it would change nothing (docs/decisions/0066-a-call-that-will-be-refused-is-not-asked-
 * about.md). Bounded like the preview: when the check cannot say in time, the user is asked as usual.
 */
async function refusalBeforeAsking(deps: TurnDeps, call: ToolUseBlock, signal: AbortSignal): Promise<ToolOutcome | null> {
  const refusal = deps.tools.refusal?.bind(deps.tools)
  if (refusal === undefined) return null
  const outcome = await beforeAsking(() => refusal({ id: call.id, name: call.name, input: call.input }, { signal, sessionState: deps.controls.toolState() }), signal)
  return outcome?.kind === 'error' ? outcome : null
}

/** What `make` answers, or null when it fails, takes longer than PREVIEW_TIMEOUT_MS, or the turn is stopped meanwhile. */
async function beforeAsking<T>(make: () => Promise<T | null>, signal: AbortSignal): Promise<T | null> {
  let onAbort: () => void = () => {}
  let timer: ReturnType<typeof setTimeout> | null = null
  const giveUp = new Promise<null>((resolve) => {
    onAbort = () => resolve(null)
    signal.addEventListener('abort', onAbort, { once: true })
    timer = setTimeout(() => resolve(null), PREVIEW_TIMEOUT_MS)
  })
  try {
    return await Promise.race([
      // Through a promise, so an executor that throws instead of rejecting is taken as having no answer too.
      Promise.resolve()
        .then(make)
        .catch(() => null),
      giveUp,
    ])
  } finally {
    signal.removeEventListener('abort', onAbort)
    if (timer !== null) clearTimeout(timer)
  }
}

/** How long a burst of changes to a previewed file settles before its preview is made again (an editor's save is several). */
export const PREVIEW_REFRESH_MS = 150

/**
 * While an approval with a preview waits, the file it shows is watched: when it changes on disk (the user edits it
 * in an editor, another tool writes it), the preview is made again and, when it differs, the question is asked again
 * with it, so what is approved is the change as the call will make it. Returns what stops watching, called once the
 * answer is in.
 */
function watchWhileAsked(deps: TurnDeps, call: ToolUseBlock, base: ApprovalRequest, asked: ApprovalRequest, signal: AbortSignal, replaced: (request: ApprovalRequest) => void): () => void {
  let shown = JSON.stringify(asked.preview ?? null)
  const watch = deps.tools.watchPreview?.bind(deps.tools)
  const update = deps.approvals.update?.bind(deps.approvals)
  if (!watch || !update || !asked.preview) return () => {}
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | null = null
  let running = false
  let again = false
  const refresh = async (): Promise<void> => {
    if (running) {
      again = true
      return
    }
    running = true
    try {
      do {
        again = false
        const next = await withPreview(deps, call, base, signal)
        if (stopped || signal.aborted) return
        // Only a preview that differs is asked again: a touch that changed nothing, or the watch's first look.
        const made = JSON.stringify(next.preview ?? null)
        if (made === shown) continue
        if (!update(call.id, next)) return
        shown = made
        replaced(next)
        deps.emit({ type: 'approval_requested', toolUseId: call.id, request: next })
      } while (again && !stopped)
    } finally {
      running = false
    }
  }
  const stopWatching = watch(asked.preview, () => {
    if (stopped) return
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      void refresh()
    }, PREVIEW_REFRESH_MS)
  })
  return () => {
    stopped = true
    if (timer !== null) clearTimeout(timer)
    stopWatching()
  }
}

/**
 * Runs the calls of one assistant message in order. Consecutive calls that are allowed and read-only run together;
 * everything else runs alone, in order. Effects are applied to the session's tool state in call order.
 */
async function runToolCalls(
  deps: TurnDeps,
  calls: ReadonlyArray<ToolUseBlock>,
  signal: AbortSignal,
  append: (bodies: ReadonlyArray<EntryBody>) => ReadonlyArray<Entry>,
  cutOff: { readonly id: string; readonly result: string } | null = null,
): Promise<void> {
  const { controls } = deps
  const results = new Map<string, { outcome: ToolOutcome; how: 'ran' | 'denied' | 'blocked' | 'invalid' | 'interrupted' }>()
  const approvals: EntryBody[] = []
  let batch: ToolUseBlock[] = []

  const execute = async (call: ToolUseBlock): Promise<void> => {
    deps.emit({ type: 'tool_started', toolUseId: call.id, name: call.name, input: call.input })
    // `compact` changes only what the model sees next: the compaction layer answers it, not the executor.
    const outcome =
      call.name === 'compact' && deps.compaction
        ? deps.compaction.fromTool(call.id, call.input)
        : await untilStopped(deps.tools.execute({ id: call.id, name: call.name, input: call.input }, { signal, sessionState: controls.toolState() }), signal)
    results.set(call.id, { outcome, how: signal.aborted && outcome.kind === 'error' && outcome.code === 'aborted' ? 'interrupted' : 'ran' })
    deps.emit({ type: 'tool_finished', toolUseId: call.id, name: call.name, isError: outcome.kind === 'error' })
  }
  const flush = async () => {
    const running = batch
    batch = []
    await Promise.all(running.map(execute))
    // Apply effects in call order, not completion order, so parallel reads never race on shared state.
    for (const call of running) applyEffects(deps, results.get(call.id)?.outcome.effects ?? [])
  }

  for (const call of calls) {
    if (signal.aborted) break
    if (call.id === cutOff?.id) {
      results.set(call.id, { outcome: errorOutcome('invalid_input', cutOff.result), how: 'invalid' })
      continue
    }
    let decision: PermissionDecision = decidePermission({ name: call.name, input: call.input }, controls.mode(), controls.rules(), {
      root: controls.root,
      ...(controls.dataDir !== undefined ? { dataDir: controls.dataDir } : {}),
      home: controls.home ?? null,
    })
    if (decision.kind === 'ask') {
      await flush()
      // A call that will only be refused (the text to replace is twice in the file, the file changed since it was
      // read) is not asked about: the agent gets the tool's own error at once, and nothing runs.
      const refused = await refusalBeforeAsking(deps, call, signal)
      if (signal.aborted) break
      if (refused) {
        deps.emit({ type: 'tool_started', toolUseId: call.id, name: call.name, input: call.input })
        results.set(call.id, { outcome: refused, how: 'ran' })
        deps.emit({ type: 'tool_finished', toolUseId: call.id, name: call.name, isError: true })
        continue
      }
      let request = await withPreview(deps, call, decision.request, signal)
      if (signal.aborted) break
      // Ask first, then announce: an answer that arrives as soon as the event is out must find the question.
      const pendingAnswer = deps.approvals.ask(call.id, request, signal)
      deps.emit({ type: 'approval_requested', toolUseId: call.id, request })
      const stopWatching = watchWhileAsked(deps, call, decision.request, request, signal, (next) => (request = next))
      const answer = await pendingAnswer.finally(stopWatching)
      if (signal.aborted) break
      const resolved = resolveApproval(request, answer, controls.rules())
      controls.setRules(resolved.rules)
      decision = resolved.decision
      approvals.push({
        kind: 'approval',
        toolUseId: call.id,
        decision: decision.kind === 'allow' ? 'allowed' : 'denied',
        via: decision.kind === 'allow' ? decision.via : 'user_denied',
        ...(answer.kind === 'deny' && answer.reason ? { reason: answer.reason } : {}),
        ...(decision.kind === 'allow' && decision.rules[0] ? { rule: `${decision.rules[0].tool}: ${decision.rules[0].pattern}` } : {}),
      })
    }
    if (decision.kind === 'deny') {
      await flush()
      results.set(call.id, { outcome: deniedOutcome(decision), how: refusalOf(decision.code) })
      continue
    }
    const readOnly = getToolSpec(call.name)?.access === 'read'
    if (readOnly) batch.push(call)
    else {
      await flush()
      await execute(call)
      applyEffects(deps, results.get(call.id)?.outcome.effects ?? [])
    }
  }
  await flush()

  const bodies: EntryBody[] = [...approvals]
  for (const call of calls) {
    const result = results.get(call.id)
    if (!result) {
      bodies.push(interrupted(call.id, call.name))
      continue
    }
    const content = result.how === 'interrupted' ? `${INTERRUPTED_RESULT}\n${result.outcome.content}` : result.outcome.content
    const notes = result.how === 'ran' ? ((await deps.notes?.afterTool({ name: call.name, input: call.input }, result.outcome.effects)) ?? []) : []
    bodies.push({
      kind: 'tool_result',
      toolUseId: call.id,
      toolName: call.name,
      content,
      isError: result.outcome.kind === 'error',
      outcome: result.how,
      ...(notes.length > 0 ? { notes } : {}),
      ...(result.outcome.kind === 'ok' && result.outcome.change ? { change: result.outcome.change } : {}),
    })
    for (const effect of result.outcome.effects) {
      if (effect.type === 'memory_saved') bodies.push({ kind: 'memory_saved', scope: effect.scope, fact: effect.fact })
      if (effect.type === 'todos_updated') bodies.push({ kind: 'todo_updated', todos: effect.todos.map((t) => ({ content: t.content, status: t.status })) })
    }
  }
  append(bodies)
}

/**
 * How a refused call is recorded: the user said no when asked (`denied`), no tool could take it (`invalid`), or the
 * session's rules refused it without asking (`blocked`: plan mode, a deny rule, a path outside the project, a
 * dangerous command in auto mode), which the chat must not show as the user's refusal.
 */
function refusalOf(code: DenyCode): 'denied' | 'blocked' | 'invalid' {
  if (code === 'user_denied') return 'denied'
  if (code === 'invalid_input' || code === 'unknown_tool') return 'invalid'
  return 'blocked'
}

function applyEffects(deps: TurnDeps, effects: ReadonlyArray<ToolEffect>): void {
  if (effects.length > 0) deps.controls.setToolState(applyToolEffects(deps.controls.toolState(), effects))
}
