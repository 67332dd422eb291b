/**
 * The replay harness (`npm run replay -- <file.jsonl>`): a recorded Claude Code session turned into a Loupe
 * session and sent pass by pass through Loupe's builder to the simulator in replay mode — each pass answered with
 * the recorded assistant message, the simulator's clock set to the recorded times so real idle gaps expire real
 * TTLs. Every pass is stored and attributed as the app does, so the figures are the app's own.
 *
 * Beside it, the same passes as a naive client would send them (a timestamp in the system prompt, no breakpoint on
 * the messages) to a second simulator, and Claude Code's own figures from its recorded usage.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { summarizeSession, usageLimits, usageRequestsOf, type PassAttribution, type SessionCacheSummary } from '../../engine/cache'
import type { PassId } from '../../engine/conversation/entries'
import type { WireRequest } from '../../engine/model/wire'
import type { Clock, Hasher } from '../../engine/ports'
import { buildPromptPlan, freezeSession, freezeSessionSection, renderRequest, type GatheredContext } from '../../engine/prompt'
import { WIRE_TOOLS } from '../../engine/tools/specs'
import { importSessionText } from '../../engine/transcripts'
import { startSimulator } from '../../simulator'
import { attributePass, cacheModels } from '../cache'
import { nodeHasher } from '../hasher'
import { createModelClient } from '../model/client'
import { findModel } from '../model/models'
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

export interface ReplayReport {
  /** The first 8 characters of the file name. */
  readonly session: string
  readonly passes: number
  readonly loupe: ShareFigures & { readonly limitShare: number; readonly summary: SessionCacheSummary }
  readonly claudeCode: ShareFigures & { readonly limitShare: number }
  readonly naive: ShareFigures | null
  /** Wall time of each pass's attribution, ms. */
  readonly attributionMs: ReadonlyArray<number>
  readonly attributions: ReadonlyArray<PassAttribution>
}

/** A project as the transcript shows it: its folder and the day it started; no instruction files are known. */
function replayProject(cwd: string | null, startedAt: number): GatheredContext {
  const root = cwd ?? '/replay'
  return {
    root,
    instructions: [],
    files: {},
    memory: { project: null, user: null },
    skills: [],
    facts: { projectName: basename(root) || 'replay', root, listing: [], listingTotal: 0, git: null, date: new Date(startedAt).toISOString().slice(0, 10) },
    build: { rootFiles: [], packageJson: null },
    notes: [],
  }
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

export async function replayTranscript(text: string, fileName: string, options: ReplayOptions = {}): Promise<ReplayReport> {
  const hasher = options.hasher ?? nodeHasher
  const session = importSessionText(text)
  const passes = transcriptPasses(session, hasher)
  const first = passes[0]
  if (!first) throw new Error(`${fileName}: no request to replay`)
  const clock = settableClock()
  clock.set(first.startedAt)
  const gathered = replayProject(session.cwd, first.startedAt)
  let frozen = freezeSession(gathered, { contextWindowTokens: findModel(first.model)?.contextWindow ?? 200_000, skills: false })
  const tools = WIRE_TOOLS.filter((t) => t.name !== 'compact')

  const responder = new ReplayResponder()
  const naiveResponder = new ReplayResponder()
  const sim = await startSimulator({ clock, responder, seed: `replay-${fileName}` })
  const naiveSim = options.naive === false ? null : await startSimulator({ clock, responder: naiveResponder, seed: `naive-${fileName}` })
  const client = createModelClient({ baseUrl: sim.baseUrl, apiKey: 'sk-replay', kind: 'simulator', maxRetries: 0, clock })
  const naiveClient = naiveSim ? createModelClient({ baseUrl: naiveSim.baseUrl, apiKey: 'sk-replay', kind: 'simulator', maxRetries: 0, clock, cacheDiagnostics: false }) : null
  const dir = mkdtempSync(join(tmpdir(), 'loupe-replay-'))
  const store = openStore(join(dir, 'replay.db'))
  try {
    const project = store.projects.open(gathered.root, first.startedAt)
    const sessionId = store.sessions.create(project.id, `Replay of ${fileName}`, first.startedAt).id
    let committed: PassSummary | null = null
    const log = new StoreSessionLog(store, sessionId, clock, (pass) => void (committed = pass))
    const attributions: PassAttribution[] = []
    const attributionMs: number[] = []
    let naiveRead = 0
    let naiveTotal = 0
    let previousMessageId: string | null = null
    for (const [n, pass] of passes.entries()) {
      clock.set(pass.startedAt)
      if (pass.afterCompaction) {
        // A checkpoint freezes the session block again; nothing in the project changed, so its bytes do not.
        frozen = { ...frozen, session: freezeSessionSection(gathered, { origin: { kind: 'checkpoint', entryId: `checkpoint_${pass.index}` }, contextWindowTokens: 200_000, skills: false }) }
      }
      const plan = buildPromptPlan({
        model: pass.model,
        maxTokens: Math.min(32_000, findModel(pass.model)?.maxOutputTokens ?? 32_000),
        settings: { features: { sandbox: false, hooks: false, todo: true, skills: false }, staticCacheTtl1h: options.staticCacheTtl1h ?? false },
        tools,
        project: frozen.project,
        session: frozen.session,
        context: frozen.context,
        history: pass.history,
        previousTailIndex: pass.previousTailIndex,
        hasher,
      })
      const request = renderRequest(plan)
      responder.answerWith(pass.response)
      const queuedAt = clock.now()
      const outcome = await client.send(request, previousMessageId ? { previousMessageId } : {})
      if (!outcome.ok) throw new Error(`${fileName}: pass ${n + 1} failed: ${outcome.error.kind} ${outcome.error.message}`)
      previousMessageId = outcome.message.id
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

      if (naiveClient) {
        naiveResponder.answerWith(pass.response)
        const naive = await naiveClient.send(naiveRequest(request, pass.startedAt), {})
        if (naive.ok) {
          const u = naive.message.usage
          naiveRead += u.cache_read_input_tokens
          naiveTotal += u.cache_read_input_tokens + u.cache_creation_input_tokens + u.input_tokens
        }
      }
      options.onPass?.(n + 1, passes.length)
    }

    const summary = summarizeSession(attributions, cacheModels)
    const recorded = usageLimits(usageRequestsOf(session))
    return {
      session: fileName.slice(0, 8),
      passes: passes.length,
      loupe: { ...share(summary.totals.read, summary.totals.inputTotal), limitShare: summary.totals.limitShare, summary },
      claudeCode: { ...share(recorded.read, recorded.total), limitShare: recorded.limitShare },
      naive: naiveClient ? share(naiveRead, naiveTotal) : null,
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

