/**
 * A Loupe conversation driven by hand against the simulator, for cache scenarios: requests built with the prompt
 * builder, sent with the app's model client, stored with the store's own pass format, attributed with
 * `attributePass` — each pass's prediction then set against what the simulator's separate cache model did.
 *
 * One manual clock drives the simulator (TTLs), the client (attempt times) and the store, so a scenario moves time
 * instead of sleeping.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keepWarmHistory, keepWarmPlan, type PassAttribution, type MissCauseKind } from '../../../src-main/engine/cache'
import type { ContextNote } from '../../../src-main/engine/prompt/notes'
import type { AssistantContentBlock, UserContentBlock, WireMessage, WireTool } from '../../../src-main/engine/model/wire'
import type { Clock, ModelOutcome } from '../../../src-main/engine/ports'
import { buildPromptPlan, freezeSession, freezeSessionSection, renderRequest, type GatheredContext, type HistoryMessage, type HistoryProvenance, type PromptPlan } from '../../../src-main/engine/prompt'
import type { FrozenSession } from '../../../src-main/engine/prompt/snapshot'
import { WIRE_TOOLS } from '../../../src-main/engine/tools/specs'
import { attributePass } from '../../../src-main/node/cache'
import { nodeHasher } from '../../../src-main/node/hasher'
import { createModelClient } from '../../../src-main/node/model/client'
import { costUsd } from '../../../src-main/node/model/models'
import { planSummary, segmentMetaFromPlan } from '../../../src-main/node/session/store-log'
import { openStore, type Store } from '../../../src-main/node/store'
import type { PassKind, PassSummary } from '../../../src-main/node/store/passes'
import type { Scheduler } from '../../../src-main/node/session/keep-warm'
import { startSimulator, type Responder, type ResponderOutput, type RunningSimulator } from '../../../src-main/simulator/index'

export function manualClock(start = Date.UTC(2026, 10, 29, 14, 0)): Clock & { advance(ms: number): void; set(ms: number): void } {
  let now = start
  return { now: () => now, advance: (ms) => void (now += ms), set: (ms) => void (now = ms) }
}

/**
 * Timers on a manual clock: `advanceTo` runs every timer due by then, in time order, with the clock set to each
 * timer's time and `settle` awaited after each (what a timer sends is sent at its time), then leaves the clock at
 * the target.
 */
export function manualScheduler(clock: { now(): number; set(ms: number): void }): Scheduler & { advanceTo(ms: number, settle?: () => Promise<unknown>): Promise<void>; advance(ms: number, settle?: () => Promise<unknown>): Promise<void>; readonly pending: number } {
  let next = 0
  const timers = new Map<number, { at: number; run: () => void }>()
  const scheduler = {
    setTimer: (run: () => void, delayMs: number): unknown => {
      const id = ++next
      timers.set(id, { at: clock.now() + Math.max(0, delayMs), run })
      return id
    },
    clearTimer: (handle: unknown) => void timers.delete(handle as number),
    async advanceTo(ms: number, settle: () => Promise<unknown> = async () => {}): Promise<void> {
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= ms).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0]
        if (!due) break
        timers.delete(due[0])
        if (due[1].at > clock.now()) clock.set(due[1].at)
        due[1].run()
        await settle()
      }
      if (ms > clock.now()) clock.set(ms)
    },
    advance(ms: number, settle?: () => Promise<unknown>): Promise<void> {
      return scheduler.advanceTo(clock.now() + ms, settle)
    },
    get pending(): number {
      return timers.size
    },
  }
  return scheduler
}

/** Answers each pass with the next scripted reply (a short text answer when the script runs out). */
export class ScriptedReplies implements Responder {
  private readonly queue: Array<ResponderOutput | (() => Promise<ResponderOutput>)> = []
  push(...replies: Array<ResponderOutput | (() => Promise<ResponderOutput>)>): void {
    this.queue.push(...replies)
  }
  async respond(): Promise<ResponderOutput> {
    const next = this.queue.shift()
    if (next === undefined) return { content: [{ type: 'text', text: 'Done.' }] }
    return typeof next === 'function' ? next() : next
  }
}

export const SETTINGS = { features: { sandbox: false, hooks: false, todo: true, skills: true }, staticCacheTtl1h: false }
export const TOOLS: ReadonlyArray<WireTool> = WIRE_TOOLS.filter((t) => t.name !== 'compact')

export function projectGathered(files: { agents?: string; memory?: string } = {}): GatheredContext {
  const agents = files.agents ?? '# Agents\n\nRun `npm test` before you finish. Money is always integer cents.'
  const memory = files.memory ?? '- The user deploys with `make ship`.'
  const file = (path: string, text: string) => ({ id: `/p/${path}`, path, read: { ok: true as const, text, bytes: text.length, replacedInvalidUtf8: false }, imports: [] })
  return {
    root: '/p',
    instructions: [{ tier: 'project', fileId: '/p/AGENTS.md', path: 'AGENTS.md' }],
    files: { '/p/AGENTS.md': file('AGENTS.md', agents), '/p/.loupe/memory.md': file('.loupe/memory.md', memory) },
    memory: { project: '/p/.loupe/memory.md', user: null },
    skills: [],
    facts: { projectName: 'shop', root: '/p', listing: [{ name: 'src', isDirectory: true }, { name: 'package.json', isDirectory: false }], listingTotal: 2, git: { branch: 'main', head: 'a'.repeat(40) }, date: '2026-11-29' },
    build: { rootFiles: ['package.json'], packageJson: { testScript: 'vitest run', packageManager: null } },
    notes: [],
  }
}

export interface PassCheck {
  readonly scenario: string
  readonly pass: number
  readonly expected: MissCauseKind
  readonly attribution: PassAttribution
}

export interface SessionOptions {
  readonly model?: string
  readonly staticCacheTtl1h?: boolean
  /** Keep the previous pass's tail marked (the app's policy); off to show the lookback limit. */
  readonly keepTail?: boolean
  /** The requests' `thinking` setting (none when absent). */
  readonly thinking?: PromptPlan['thinking']
}

/** One scenario's world: a simulator on a manual clock, a store, a session, a conversation. */
export class Scenario {
  readonly clock = manualClock()
  readonly replies = new ScriptedReplies()
  readonly checks: PassCheck[] = []
  /** Wall time of each pass's attributePass call, ms. */
  readonly attributionMs: number[] = []
  /** Every pass sent, with the plan it was built from, in order (to attribute again in isolation). */
  readonly sent: Array<{ readonly summary: PassSummary; readonly plan: PromptPlan; readonly responseBody: string | undefined }> = []
  private lastResponseBody: string | undefined
  history: HistoryMessage[] = []
  model: string
  tools: ReadonlyArray<WireTool> = TOOLS
  frozen: FrozenSession
  staticCacheTtl1h: boolean
  keepTail: boolean
  thinking: PromptPlan['thinking']
  previousLength = 0
  private entrySeq = 0
  private lastMessageId: string | null = null
  private sim!: RunningSimulator
  private dir!: string
  store!: Store
  sessionId!: string

  constructor(readonly name: string, options: SessionOptions = {}) {
    this.model = options.model ?? 'claude-sonnet-4-6'
    this.staticCacheTtl1h = options.staticCacheTtl1h ?? false
    this.keepTail = options.keepTail ?? true
    this.thinking = options.thinking ?? null
    this.frozen = freezeSession(projectGathered(), { contextWindowTokens: 200_000, skills: true })
  }

  async open(): Promise<void> {
    this.sim = await startSimulator({ clock: this.clock, responder: this.replies, seed: this.name })
    this.dir = mkdtempSync(join(tmpdir(), 'loupe-cache-'))
    this.store = openStore(join(this.dir, 'loupe.db'))
    const project = this.store.projects.open('/p', this.clock.now())
    this.sessionId = this.store.sessions.create(project.id, this.name, this.clock.now()).id
  }

  async close(): Promise<void> {
    await this.sim.close()
    this.store.close()
    rmSync(this.dir, { recursive: true, force: true })
  }

  entryId(): string {
    return `ent_${this.name}_${++this.entrySeq}`
  }

  user(text: string, notes?: ReadonlyArray<ContextNote>): void {
    this.push({ role: 'user', content: [{ type: 'text', text }] }, 'user_input', notes)
  }

  /** Answers every tool call of the newest assistant message. */
  results(contents: (name: string, input: unknown) => string, notes?: ReadonlyArray<ContextNote>): void {
    const last = this.history.at(-1)?.message
    if (last?.role !== 'assistant') throw new Error('no assistant message to answer')
    const blocks: UserContentBlock[] = last.content.flatMap((b) => (b.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: b.id, content: contents(b.name, b.input) }] : []))
    this.push({ role: 'user', content: blocks }, 'tool_results', notes)
  }

  push(message: WireMessage, kind: HistoryProvenance['kind'], notes?: ReadonlyArray<ContextNote>, entryIds?: ReadonlyArray<string>): void {
    this.history = [...this.history, { message, provenance: { entryIds: entryIds ?? [this.entryId()], kind }, ...(notes?.length ? { notes } : {}) }]
  }

  plan(history: ReadonlyArray<HistoryMessage> = this.history, previousTailIndex?: number): PromptPlan {
    const previous = this.previousLength
    return buildPromptPlan({
      model: this.model,
      maxTokens: this.thinking?.type === 'enabled' ? this.thinking.budget_tokens + 1024 : 1024,
      settings: { ...SETTINGS, staticCacheTtl1h: this.staticCacheTtl1h },
      ...(this.thinking ? { thinking: this.thinking } : {}),
      tools: this.tools,
      project: this.frozen.project,
      session: this.frozen.session,
      context: this.frozen.context,
      history,
      previousTailIndex: previousTailIndex ?? (this.keepTail && previous > 0 && previous <= history.length ? previous - 1 : null),
      hasher: nodeHasher,
    })
  }

  /** Re-freezes the session block (an edit applied now, or a checkpoint). */
  refreeze(gathered: GatheredContext, origin: Parameters<typeof freezeSessionSection>[1]['origin']): void {
    this.frozen = { ...this.frozen, session: freezeSessionSection(gathered, { origin, contextWindowTokens: 200_000, skills: true }) }
  }

  /** Sends one pass; the response joins the history unless `keep` is false. */
  async pass(expected: MissCauseKind, options: { keep?: boolean; history?: HistoryMessage[]; kind?: 'main' | 'summary' } = {}): Promise<PassAttribution> {
    const plan = this.plan(options.history)
    const { outcome, summary } = await this.send(plan, options.kind ?? 'main')
    if (outcome.ok && options.keep !== false) {
      this.push({ role: 'assistant', content: outcome.message.content as AssistantContentBlock[] }, 'assistant')
    }
    if (options.history === undefined) this.previousLength = plan.messages.length
    return this.attribute(summary, plan, expected)
  }

  /**
   * Sends the cache pre-warm the runtime would send now (engine/cache/keep-warm.ts): the history through the last
   * assistant message, a 1h marker at its tail, `max_tokens: 0`. Stored as a `keep_warm` pass and attributed.
   */
  async keepWarm(expected: MissCauseKind): Promise<PassAttribution> {
    const shaped = keepWarmHistory(this.history)
    if (!shaped) throw new Error('nothing to keep warm')
    const plan = keepWarmPlan(this.plan(shaped.history, shaped.tailIndex))
    if (!plan) throw new Error('no marker on the assistant message')
    const client = createModelClient({ baseUrl: this.sim.baseUrl, apiKey: 'sk-sim-test', kind: 'simulator', maxRetries: 0, clock: this.clock })
    const queuedAt = this.clock.now()
    const outcome = await client.prewarm!(renderRequest(plan), {})
    if (!outcome.ok) throw new Error(`the pre-warm failed: ${outcome.error.message}`)
    return this.attribute(this.commit(plan, outcome, queuedAt, 'keep_warm'), plan, expected)
  }

  /** Sends one pass and stores it. */
  async send(plan: PromptPlan, kind: 'main' | 'summary' = 'main'): Promise<{ outcome: ModelOutcome; summary: PassSummary }> {
    const { outcome, commit } = await this.sendUncommitted(plan, kind)
    return { outcome, summary: commit() }
  }

  /** Like send, but stores the pass only when `commit` is called. */
  async sendUncommitted(plan: PromptPlan, kind: 'main' | 'summary' = 'main'): Promise<{ outcome: ModelOutcome; commit: () => PassSummary }> {
    const client = createModelClient({ baseUrl: this.sim.baseUrl, apiKey: 'sk-sim-test', kind: 'simulator', maxRetries: 0, clock: this.clock })
    const queuedAt = this.clock.now()
    const previousMessageId = this.lastMessageId
    const outcome = await client.send(renderRequest(plan), previousMessageId ? { previousMessageId } : {})
    if (outcome.ok) this.lastMessageId = outcome.message.id
    return { outcome, commit: () => this.commit(plan, outcome, queuedAt, kind) }
  }

  commit(plan: PromptPlan, outcome: ModelOutcome, queuedAt: number, kind: PassKind): PassSummary {
    const last = outcome.attempts.at(-1)
    this.lastResponseBody = last?.responseBody
    const message = outcome.ok ? outcome.message : null
    return this.store.transaction(() =>
      this.store.passes.insert({
        sessionId: this.sessionId,
        kind,
        model: plan.model,
        status: outcome.ok ? 'done' : 'failed',
        queuedAt,
        firstByteAt: last?.firstByteAt ?? null,
        doneAt: last?.endedAt ?? queuedAt,
        requestBody: last?.requestBody ?? '{}',
        segmentMeta: segmentMetaFromPlan(plan),
        attempts: outcome.attempts.map((a) => ({ startedAt: a.startedAt, firstByteAt: a.firstByteAt, endedAt: a.endedAt, status: a.status, requestId: a.requestId, error: a.error, responseHeaders: a.responseHeaders, responseBody: a.responseBody })),
        messageId: message?.id ?? null,
        stopReason: message?.stop_reason ?? null,
        usage: message?.usage ?? null,
        costUsd: message ? costUsd(plan.model, message.usage) : null,
        error: outcome.ok ? null : { kind: outcome.error.kind, message: outcome.error.message },
        plan: planSummary(plan),
      }),
    )
  }

  attribute(summary: PassSummary, plan: PromptPlan, expected: MissCauseKind): PassAttribution {
    this.sent.push({ summary, plan, responseBody: this.lastResponseBody })
    const started = performance.now()
    const attribution = attributePass(this.store, summary, { plan, onError: (e) => { throw e } })
    this.attributionMs.push(performance.now() - started)
    if (!attribution) throw new Error(`pass ${summary.id} was not attributed`)
    this.checks.push({ scenario: this.name, pass: this.checks.length + 1, expected, attribution })
    return attribution
  }
}

export interface ScenarioResult {
  readonly name: string
  readonly checks: ReadonlyArray<PassCheck>
}

/** Runs a scenario body in a fresh world and returns its checks. */
export async function runScenario(name: string, options: SessionOptions, body: (s: Scenario) => Promise<void>): Promise<ScenarioResult> {
  const s = new Scenario(name, options)
  await s.open()
  try {
    await body(s)
  } finally {
    await s.close()
  }
  return { name, checks: s.checks }
}
