/**
 * The replay harness (`npm run replay -- <file.jsonl>`): a recorded Claude Code session turned into a Loupe
 * session and sent pass by pass through Loupe's builder to the simulator in replay mode — each pass answered with
 * the recorded assistant message, the simulator's clock set to the recorded times so real idle gaps expire real
 * TTLs. Every pass is stored and attributed as the app does, so the figures are the app's own.
 *
 * The replay's clock follows the recorded times, and the session's cache keep-warm runs on it through the runtime's
 * own code (node/session/keep-warm.ts): after each pass a pre-warm is planned, and when the next recorded request
 * comes later than that, the pre-warm goes out at its time. Its requests are counted apart from the conversation.
 *
 * Conversation passes go through the runtime's counting client (node/cache/prefix-counts.ts), so the tool and system
 * prefixes are counted with count_tokens as the app counts them, and the attribution places reads with those counts.
 *
 * Beside it, the same passes as a naive client would send them (a timestamp in the system prompt, no breakpoint on
 * the messages) to a second simulator, and Claude Code's own figures from its recorded usage.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { summarizeSession, usageLimits, usageRequestsOf, type PassAttribution, type SessionCacheSummary } from '../../engine/cache'
import type { PassId } from '../../engine/conversation/entries'
import type { AssistantContentBlock, Usage, WireRequest } from '../../engine/model/wire'
import type { Clock, Hasher } from '../../engine/ports'
import { buildPromptPlan, freezeSession, freezeSessionSection, renderRequest, type GatheredContext, type HistoryMessage, type PromptPlan } from '../../engine/prompt'
import { emptyGatheredContext } from '../../engine/prompt/gathered'
import { keepWarmHistory, keepWarmPlan, type KeepWarmTotals } from '../../engine/cache'
import { LISTS_SKILLS, OFFERED_TOOLS, promptSettings } from '../session/prompt-settings'
import { importSessionText, skippedReasons, type ImportedSession } from '../../engine/transcripts'
import { startSimulator } from '../../simulator'
import { findSimModel } from '../../simulator/models'
import { attributePass, cacheModels } from '../cache'
import { countingPrefixes } from '../cache/prefix-counts'
import { nodeHasher } from '../hasher'
import { createModelClient } from '../model/client'
import { costUsd, findModel, thinkingFor } from '../model/models'
import { KeepWarm, type Scheduler } from '../session/keep-warm'
import { StoreSessionLog } from '../session/store-log'
import { openStore } from '../store'
import type { PassSummary } from '../store/passes'
import { ReplayResponder } from './responder'
import { transcriptPasses } from './transcript-passes'

export interface ReplayOptions {
  /** Also send the naive baseline (default true). */
  readonly naive?: boolean
  /** Give the static block a 1h TTL, as the app's setting does. */
  readonly staticCacheTtl1h?: boolean
  /** Keep the cache warm through idle gaps, as the app's setting does (default true, the app's default). */
  readonly keepWarm?: boolean
  /** Think on the models that take adaptive thinking, as the app's setting does (default true, the app's default). */
  readonly thinking?: boolean
  readonly hasher?: Hasher
  /** Called after each pass, for progress. */
  readonly onPass?: (done: number, total: number) => void
}

export interface ShareFigures {
  readonly read: number
  readonly total: number
  /** read / total. */
  readonly share: number
}

/** Dollars: the input side (read, written, uncached) and the whole (with output). */
export interface CostFigures {
  readonly inputUsd: number
  readonly usd: number
}

export interface ReplayReport {
  /** The first 8 characters of the file name. */
  readonly session: string
  readonly passes: number
  /**
   * Loupe's conversation passes (the share leaves the keep-warm pre-warms out); `cost` is the session's whole bill,
   * pre-warms included, and `keepWarm` what the pre-warms read, wrote and cost.
   */
  readonly loupe: ShareFigures & { readonly limitShare: number; readonly summary: SessionCacheSummary; readonly cost: CostFigures; readonly keepWarm: KeepWarmTotals & { readonly inputUsd: number } }
  readonly claudeCode: ShareFigures & { readonly limitShare: number; readonly cost: CostFigures }
  readonly naive: (ShareFigures & { readonly cost: CostFigures }) | null
  /**
   * How the two sides count the same text: over consecutive passes on one model whose prompts both grew, Loupe's
   * growth (the simulator's counter) over Claude Code's (the real tokenizer, as billed). Shares are ratios and do not
   * depend on it; token and dollar totals do, so a comparison of those across the two sides is scaled by it.
   */
  readonly countRatio: { readonly loupeGrowth: number; readonly claudeCodeGrowth: number; readonly pairs: number; readonly ratio: number }
  /** Tool and system prefixes the counting client measured with count_tokens (the attribution places reads of them alone by these). */
  readonly countedPrefixes: number
  /** Wall time of each pass's attribution, ms. */
  readonly attributionMs: ReadonlyArray<number>
  readonly attributions: ReadonlyArray<PassAttribution>
}

/** The naive client: the time in the system prompt, breakpoints only on the system blocks. */
export function naiveRequest(request: WireRequest, at: number): WireRequest {
  const [first, ...rest] = request.system ?? []
  const stamp = `Current time: ${new Date(at).toISOString()}`
  const strip = <B extends object>(b: B): B => {
    if (!('cache_control' in b)) return b
    const { cache_control: _drop, ...kept } = b as B & { cache_control?: unknown }
    return kept as B
  }
  return {
    ...request,
    system: first ? [{ ...first, text: `${stamp}\n\n${first.text}` }, ...rest] : [{ type: 'text', text: stamp }],
    messages: request.messages.map((m) => ({ ...m, content: m.content.map(strip) }) as typeof m),
  }
}

function share(read: number, total: number): ShareFigures {
  return { read, total, share: total > 0 ? read / total : 0 }
}

function settableClock(): Clock & { set(ms: number): void } {
  let now = 0
  return { now: () => now, set: (ms) => void (now = Math.max(now, ms)) }
}

/**
 * Timers on the replay's clock: `runNext(ms)` runs the earliest timer due by `ms` with the clock at its time, so
 * what it sends is sent then; the replay waits for it before time moves on.
 */
function replayScheduler(clock: Clock & { set(ms: number): void }): Scheduler & { runNext(ms: number): boolean } {
  let next = 0
  const timers = new Map<number, { at: number; run: () => void }>()
  return {
    setTimer: (run, delayMs) => {
      timers.set(++next, { at: clock.now() + Math.max(0, delayMs), run })
      return next
    },
    clearTimer: (handle) => void timers.delete(handle as number),
    runNext(ms) {
      const due = [...timers].filter(([, t]) => t.at <= ms).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0]
      if (!due) return false
      timers.delete(due[0])
      clock.set(due[1].at)
      due[1].run()
      return true
    },
  }
}

/** A request's dollars from its usage and the model table (§5.5); nothing for a model the table does not know. */
function usageCost(model: string, usage: Usage): CostFigures {
  return { inputUsd: costUsd(model, { ...usage, output_tokens: 0 }) ?? 0, usd: costUsd(model, usage) ?? 0 }
}

function addCost(a: CostFigures, b: CostFigures): CostFigures {
  return { inputUsd: a.inputUsd + b.inputUsd, usd: a.usd + b.usd }
}

const NO_COST: CostFigures = { inputUsd: 0, usd: 0 }

/** The session holds nothing the replay can send: the user's input to fix, not a fault of the replay. */
export class ReplayInputError extends Error {}

/** Why a session has no request to replay, from what reading its file found. */
function nothingToReplay(session: ImportedSession): string {
  const file = session.file
  if (file.lineCount === 0) return 'no request to replay: the file is empty'
  const lines = `${file.lineCount.toLocaleString('en-US')} line${file.lineCount === 1 ? '' : 's'}`
  if (file.skippedTotal === file.lineCount) {
    return `no request to replay: not a Claude Code session, none of its ${lines} is a transcript record (${skippedReasons(file.skipped)})`
  }
  return `no request to replay: its ${lines} record no API request on the main conversation`
}

/** Why a session's requests cannot be answered: the models it used that the simulator's table does not have. */
function unservedModels(models: ReadonlyArray<string>): string {
  // A model name is the transcript's text: a hostile one is shortened, never printed whole.
  const shown = models.slice(0, 3).map((m) => JSON.stringify(m.length > 60 ? `${m.slice(0, 60)}…` : m))
  const more = models.length > 3 ? ` and ${models.length - 3} more` : ''
  return `its requests use ${shown.join(', ')}${more}, which the simulator does not serve (its models: src-main/simulator/models.ts), so they cannot be replayed`
}

/** Replays a session file's text; see `replaySession`. */
export async function replayTranscript(text: string, fileName: string, options: ReplayOptions = {}): Promise<ReplayReport> {
  return replaySession(importSessionText(text), fileName, options)
}

/** Replays a session; throws `ReplayInputError` when it has no request to replay. */
export async function replaySession(session: ImportedSession, fileName: string, options: ReplayOptions = {}): Promise<ReplayReport> {
  const hasher = options.hasher ?? nodeHasher
  const thinkingOn = options.thinking ?? true
  const passes = transcriptPasses(session, hasher, (model) => thinkingFor(model, thinkingOn) !== null)
  const first = passes[0]
  if (!first) throw new ReplayInputError(nothingToReplay(session))
  // Checked before anything is sent: otherwise the replay stops at the first such pass, having done the ones before.
  const unserved = [...new Set(passes.map((p) => p.model))].filter((model) => findSimModel(model) === null)
  if (unserved.length > 0) throw new ReplayInputError(unservedModels(unserved))
  const clock = settableClock()
  clock.set(first.startedAt)
  // The project as the transcript shows it: its folder and the day it started; no instruction files are known.
  const root = session.cwd ?? '/replay'
  const gathered = emptyGatheredContext(root, { projectName: basename(root) || 'replay', date: new Date(first.startedAt).toISOString().slice(0, 10) })
  // The app's tools and static rules (node/session/prompt-settings.ts): the replay sends what the app sends.
  let frozen = freezeSession(gathered, { contextWindowTokens: findModel(first.model)?.contextWindow ?? 200_000, skills: LISTS_SKILLS })
  const tools = OFFERED_TOOLS
  const settings = promptSettings(options.staticCacheTtl1h ?? false)
  // Thinking goes back with the signature the simulator gave it (the recorded ones belong to the real service): each
  // history message is re-signed once, so it stays one object from pass to pass, as the runtime's history does.
  const signatures = new Map<string, string>()
  const resigned = new WeakMap<HistoryMessage, HistoryMessage>()
  const signed = (m: HistoryMessage): HistoryMessage => {
    if (m.message.role !== 'assistant' || !m.message.content.some((b) => b.type === 'thinking')) return m
    const known = resigned.get(m)
    if (known) return known
    // Thinking the simulator never signed (an answer from before the replay's first pass) is left out.
    const content = (m.message.content as ReadonlyArray<AssistantContentBlock>).flatMap((b): AssistantContentBlock[] => {
      if (b.type !== 'thinking') return [b]
      const signature = signatures.get(b.thinking)
      return signature === undefined ? [] : [{ ...b, signature }]
    })
    const out: HistoryMessage = { ...m, message: { role: 'assistant', content: content.length ? content : [{ type: 'text', text: '(no answer)' }] } }
    resigned.set(m, out)
    return out
  }
  const planOf = (model: string, history: ReadonlyArray<HistoryMessage>, previousTailIndex: number | null): PromptPlan => {
    const thinking = thinkingFor(model, thinkingOn)
    return buildPromptPlan({
      model,
      maxTokens: Math.min(32_000, findModel(model)?.maxOutputTokens ?? 32_000),
      ...(thinking ? { thinking } : {}),
      settings,
      tools,
      project: frozen.project,
      session: frozen.session,
      context: frozen.context,
      history: history.map(signed),
      previousTailIndex,
      hasher,
    })
  }

  const responder = new ReplayResponder()
  const naiveResponder = new ReplayResponder()
  const sim = await startSimulator({ clock, responder, seed: `replay-${fileName}` })
  const naiveSim = options.naive === false ? null : await startSimulator({ clock, responder: naiveResponder, seed: `naive-${fileName}` })
  const client = createModelClient({ baseUrl: sim.baseUrl, apiKey: 'sk-replay', kind: 'simulator', maxRetries: 0, clock })
  const naiveClient = naiveSim ? createModelClient({ baseUrl: naiveSim.baseUrl, apiKey: 'sk-replay', kind: 'simulator', maxRetries: 0, clock, cacheDiagnostics: false }) : null
  const dir = mkdtempSync(join(tmpdir(), 'loupe-replay-'))
  const store = openStore(join(dir, 'replay.db'))
  // Conversation passes go out as the runtime sends them: each counting its unmeasured tool and system prefixes beside it.
  const sending = countingPrefixes(client, store, { now: () => clock.now(), hasher, onError: (e) => { throw e } })
  try {
    const project = store.projects.open(gathered.root, first.startedAt)
    const sessionId = store.sessions.create(project.id, `Replay of ${fileName}`, first.startedAt).id
    let committed: PassSummary | null = null
    const scheduler = replayScheduler(clock)
    // The pass being replayed: a pre-warm after it carries the session's history as it stood, with its answer.
    let current: (typeof passes)[number] | null = null
    let keepWarm: KeepWarm | null = null
    const log = new StoreSessionLog(store, sessionId, clock, (pass) => {
      committed = pass
      // As the runtime does: each pass of the conversation plans the pre-warm for the gap after it.
      if (pass.kind === 'main' && pass.status === 'done') keepWarm?.passCommitted(pass)
    })
    keepWarm = new KeepWarm({
      clock,
      scheduler,
      client: () => client,
      log,
      models: cacheModels,
      enabled: () => options.keepWarm ?? true,
      plan: () => {
        if (!current) return null
        const shaped = keepWarmHistory([...current.history, current.answer])
        return shaped ? keepWarmPlan(planOf(current.model, shaped.history, shaped.tailIndex)) : null
      },
      onError: (e) => {
        throw e
      },
    })
    const attributions: PassAttribution[] = []
    const keepWarmAttributions: PassAttribution[] = []
    const attributionMs: number[] = []
    let naiveRead = 0
    let naiveTotal = 0
    let naiveCost = NO_COST
    let previousMessageId: string | null = null
    // The same conversation counted by both sides, pass to pass (countRatio).
    const growth = { loupe: 0, recorded: 0, pairs: 0 }
    let grown: { model: string; loupe: number; recorded: number } | null = null
    for (const [n, pass] of passes.entries()) {
      // Time moves to this request: a pre-warm due before it goes out first, at its time, then the gap is over.
      while (scheduler.runNext(pass.startedAt)) {
        for (const warm of await keepWarm.settled()) if (warm?.attribution) keepWarmAttributions.push(warm.attribution as PassAttribution)
      }
      keepWarm.cancel()
      clock.set(pass.startedAt)
      if (pass.afterCompaction) {
        // A checkpoint freezes the session block again; nothing in the project changed, so its bytes do not.
        frozen = { ...frozen, session: freezeSessionSection(gathered, { origin: { kind: 'checkpoint', entryId: `checkpoint_${pass.index}` }, contextWindowTokens: 200_000, skills: LISTS_SKILLS }) }
      }
      const plan = planOf(pass.model, pass.history, pass.previousTailIndex)
      const request = renderRequest(plan)
      current = pass
      responder.answerWith(pass.response)
      const queuedAt = clock.now()
      const outcome = await sending.send(request, previousMessageId ? { previousMessageId } : {})
      // The simulator refused what the transcript recorded (a block it cannot carry, an image that is not one): the
      // input's doing, said in a line; the passes before it were replayed, but a report of half a session would mislead.
      if (!outcome.ok) throw new ReplayInputError(`pass ${n + 1} of ${passes.length} was refused by the simulator: ${outcome.error.kind} ${outcome.error.message.slice(0, 300)}`)
      previousMessageId = outcome.message.id
      for (const b of outcome.message.content) if (b.type === 'thinking') signatures.set(b.thinking, b.signature)
      committed = null
      log.commitPass(
        { kind: 'main', model: pass.model, status: 'done', queuedAt, firstByteAt: outcome.attempts.at(-1)?.firstByteAt ?? null, doneAt: clock.now(), plan, attempts: outcome.attempts, message: outcome.message, error: null },
        (_passId: PassId) => [],
      )
      const summary = committed as PassSummary | null
      if (!summary) throw new Error('the pass was not committed')
      const started = performance.now()
      const attribution = attributePass(store, summary, { plan, hasher, onError: (e) => { throw e } })
      attributionMs.push(performance.now() - started)
      if (attribution) attributions.push(attribution)
      const loupeTotal = attribution?.actual?.tokens.total ?? null
      const recordedTotal = pass.recordedUsage.input_tokens + pass.recordedUsage.cache_read_input_tokens + pass.recordedUsage.cache_creation_input_tokens
      if (grown && loupeTotal !== null && grown.model === pass.model && loupeTotal > grown.loupe && recordedTotal > grown.recorded) {
        growth.loupe += loupeTotal - grown.loupe
        growth.recorded += recordedTotal - grown.recorded
        growth.pairs++
      }
      grown = loupeTotal === null ? null : { model: pass.model, loupe: loupeTotal, recorded: recordedTotal }

      if (naiveClient) {
        naiveResponder.answerWith(pass.response)
        const naive = await naiveClient.send(naiveRequest(request, pass.startedAt), {})
        if (naive.ok) {
          const u = naive.message.usage
          naiveRead += u.cache_read_input_tokens
          naiveTotal += u.cache_read_input_tokens + u.cache_creation_input_tokens + u.input_tokens
          naiveCost = addCost(naiveCost, usageCost(pass.model, u))
        }
      }
      options.onPass?.(n + 1, passes.length)
    }

    // The gap after the last pass: the session is left, and any pre-warm planned for it is not counted.
    keepWarm.cancel()
    const summary = summarizeSession([...attributions, ...keepWarmAttributions], cacheModels)
    const requests = usageRequestsOf(session)
    const recorded = usageLimits(requests)
    const claudeCodeCost = requests.reduce((sum, r) => addCost(sum, usageCost(r.model, r.usage)), NO_COST)
    const stored = store.passes.list(sessionId)
    const loupeCost = stored.reduce((sum, p) => (p.usage ? addCost(sum, usageCost(p.model, p.usage)) : sum), NO_COST)
    const keepWarmInputUsd = stored.reduce((sum, p) => (p.kind === 'keep_warm' && p.usage ? sum + usageCost(p.model, p.usage).inputUsd : sum), 0)
    return {
      session: fileName.slice(0, 8),
      passes: passes.length,
      loupe: { ...share(summary.totals.read, summary.totals.inputTotal), limitShare: summary.totals.limitShare, summary, cost: loupeCost, keepWarm: { ...summary.keepWarm, inputUsd: keepWarmInputUsd } },
      claudeCode: { ...share(recorded.read, recorded.total), limitShare: recorded.limitShare, cost: claudeCodeCost },
      naive: naiveClient ? { ...share(naiveRead, naiveTotal), cost: naiveCost } : null,
      countRatio: { loupeGrowth: growth.loupe, claudeCodeGrowth: growth.recorded, pairs: growth.pairs, ratio: growth.recorded > 0 ? growth.loupe / growth.recorded : 0 },
      countedPrefixes: store.prefixCounts.all().size,
      attributionMs,
      attributions,
    }
  } finally {
    store.close()
    rmSync(dir, { recursive: true, force: true })
    await sim.close()
    await naiveSim?.close()
  }
}

