/**
 * Compaction (docs/compaction.md "Figures"):
 *
 * - `compaction.cost_ratio`: what one summary of a 160k-token session costs, in $ from the simulator's usage
 *   priced with the model table: ours (the summary request sharing the session's cached prefix, in the form
 *   `chooseForm` picks on a warm cache) over a standalone summary request with its own system prompt. Both run on
 *   the cache the session's own passes left. The note gives the other prefix form too (docs/decisions/0006).
 * - `compaction.stage1_tokens_saved.<session>` / `compaction.stage1_ms.<session>`: stage 1 alone (no model call)
 *   on the three real Claude Code sessions, replayed up to their compaction point: estimated tokens saved, and the
 *   time of the whole compaction run that decides it (view, history, plan, trims, estimate), median of 9.
 *
 * The 160k-token session is built from this repository's own source files, read one per turn, so its text counts
 * like real code; it is counted with the simulator's count_tokens before it is used.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_COMPACTION_SETTINGS, runCompaction } from '../src-main/engine/compaction'
import type { PassId } from '../src-main/engine/conversation/entries'
import type { WireMessage } from '../src-main/engine/model/wire'
import type { ModelClient } from '../src-main/engine/ports'
import { renderRequest } from '../src-main/engine/prompt'
import { importSessionText, reconstructPass } from '../src-main/engine/transcripts'
import { priceForms, replaySession, type ReplaySetup } from '../src-main/node/compaction/real-compactions'
import { nodeHasher } from '../src-main/node/hasher'
import { createModelClient } from '../src-main/node/model/client'
import { startSimulator } from '../src-main/simulator'
import { round, timeMs, type Bench } from './bench'

const ROOT = join(import.meta.dirname ?? __dirname, '..')
const MODEL = 'claude-sonnet-4-6'
const SESSION_TOKENS = 160_000
const SPOTTER = ['fa812bfe-b295-4cca-9c2f-fdf01028cb46', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04', '4d5611e5-241a-462a-8d15-5122611a9569']
const ROUNDS = 9

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full))
    else if (name.endsWith('.ts')) out.push(full)
  }
  return out
}

/** A conversation of `read <file>` turns over this repository's sources, ending with the user's next request. */
function codeSession(turns: number): WireMessage[] {
  const files = sourceFiles(join(ROOT, 'src-main'))
  const messages: WireMessage[] = []
  for (let i = 0; i < turns; i++) {
    const file = files[i % files.length]!
    const path = file.slice(ROOT.length + 1)
    const id = `toolu_bench${String(i).padStart(4, '0')}`
    messages.push({ role: 'user', content: [{ type: 'text', text: `read ${path} and tell me what it does` }] })
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `I'll read \`${path}\`.` }, { type: 'tool_use', id, name: 'read_file', input: { path } }] })
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: readFileSync(file, 'utf8') }] })
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `\`${path}\` defines what its header comment says; the main export is used by its neighbours.` }] })
  }
  messages.push({ role: 'user', content: [{ type: 'text', text: 'now summarise what you learned about the store' }] })
  return messages
}

async function sizedSession(client: ModelClient): Promise<{ messages: WireMessage[]; tokens: number }> {
  const count = async (messages: WireMessage[]) => {
    const setup = { messages, client, model: MODEL, hasher: nodeHasher, clock: { now: () => Date.now() }, root: ROOT }
    const s = replaySession(setup)
    const { max_tokens: _m, stream: _s, ...body } = renderRequest(s.planner(s.history, null, s.maxTokens))
    return client.countTokens(body)
  }
  let turns = 20
  for (;;) {
    const messages = codeSession(turns)
    const tokens = await count(messages)
    if (tokens >= SESSION_TOKENS) return { messages, tokens }
    turns = Math.ceil(turns * Math.min(2, (SESSION_TOKENS * 1.02) / tokens))
  }
}

async function costRatio(): Promise<ReturnType<Bench['run']> extends Promise<infer F> ? F : never> {
  const simulator = await startSimulator({ pace: 'instant', seed: 'compaction-bench' })
  try {
    const client = createModelClient({ baseUrl: simulator.baseUrl, apiKey: 'sk-bench', kind: 'simulator', maxRetries: 0, cacheDiagnostics: false })
    const { messages, tokens } = await sizedSession(client)
    const setup: ReplaySetup = { messages, client, model: MODEL, hasher: nodeHasher, clock: { now: () => Date.now() }, root: ROOT }
    const forms = await priceForms(setup)
    const ours = forms.cut
    const describe = (f: { usd: number; usage: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; output_tokens: number } }) =>
      `$${f.usd.toFixed(4)} (read ${f.usage.cache_read_input_tokens}, write ${f.usage.cache_creation_input_tokens}, uncached ${f.usage.input_tokens}, out ${f.usage.output_tokens})`
    return [
      {
        name: 'compaction.cost_ratio',
        value: round(ours.usd / forms.standalone.usd, 3),
        unit: 'ratio',
        baseline: round(forms.standalone.usd, 5),
        ratio: round(ours.usd / forms.standalone.usd, 3),
        goal: '≤ 0.25',
        note:
          `${tokens} tokens, ${MODEL}; ours = cut form ${describe(ours)}; upto form ${describe(forms.upto)} ` +
          `(ratio ${round(forms.upto.usd / forms.standalone.usd, 3)}); standalone ${describe(forms.standalone)}`,
      },
    ]
  } finally {
    await simulator.close()
  }
}

const noModel: ModelClient = {
  endpoint: { kind: 'simulator', baseUrl: 'none' },
  send: () => Promise.reject(new Error('stage 1 makes no model call')),
  countTokens: () => Promise.reject(new Error('stage 1 makes no model call')),
}

async function stageOne(): Promise<Array<{ name: string; value: number; unit: string; note?: string }>> {
  const figures: Array<{ name: string; value: number; unit: string; note?: string }> = []
  for (const name of SPOTTER) {
    const session = importSessionText(readFileSync(join(ROOT, 'test', 'fixtures', 'real', 'spotter', `${name}.jsonl`), 'utf8'))
    const checkpoint = session.checkpoints.find((c) => c.kind === 'compact')!
    const messages = reconstructPass(session, session.requests[checkpoint.requestBefore!]!).messages
    const setup: ReplaySetup = { messages, client: noModel, model: MODEL, hasher: nodeHasher, clock: { now: () => Date.now() }, root: session.cwd ?? '/' }
    let saved = 0
    let before = 0
    let trimmed = 0
    const run = async () => {
      const replay = replaySession(setup)
      const result = await runCompaction(
        { model: noModel, log: { commitPass: () => ({ passId: 'none' as PassId, entries: [] }) }, planner: replay.planner, clock: setup.clock, priceUsd: () => 0 },
        // A window so large that stage 1 always reaches the target: the figure is stage 1 alone.
        { entries: replay.entries, previousTailIndex: null, settings: DEFAULT_COMPACTION_SETTINGS, windowTokens: 1e12, realTokens: null, model: MODEL, maxOutputTokens: 8192, root: setup.root, origin: { kind: 'session_start' } },
        { trigger: 'auto', focus: null, instructions: null, upto: null, forceSummary: false },
        new AbortController().signal,
      )
      if (result.status !== 'draft' || result.draft.stage !== 'trim') throw new Error(`stage 1 on ${name}: ${result.status}`)
      before = result.draft.tokens.before.estimated
      saved = before - result.draft.tokens.afterStage1
      trimmed = result.draft.trims.length
    }
    await run()
    const samples: number[] = []
    for (let i = 0; i < ROUNDS; i++) samples.push(await timeMs(run))
    samples.sort((a, b) => a - b)
    const short = name.slice(0, 8)
    figures.push({ name: `compaction.stage1_tokens_saved.${short}`, value: saved, unit: 'tokens', note: `${trimmed} tool results trimmed; ≈${before} tokens before (estimated, characters / 4), ≈${before - saved} after` })
    figures.push({ name: `compaction.stage1_ms.${short}`, value: round(samples[Math.floor(samples.length / 2)]!, 1), unit: 'ms', note: `median of ${ROUNDS}; whole run: view, history, plan, trims, estimate` })
  }
  return figures
}

const bench: Bench = {
  figures: ['compaction.cost_ratio', ...SPOTTER.flatMap((s) => [`compaction.stage1_tokens_saved.${s.slice(0, 8)}`, `compaction.stage1_ms.${s.slice(0, 8)}`])],
  async run() {
    return [...(await costRatio()), ...(await stageOne())]
  },
}

export default bench
