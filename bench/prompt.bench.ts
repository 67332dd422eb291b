/**
 * Prompt builder figures (docs/context-engine.md "Performance"):
 * - build time per pass (buildPromptPlan + renderRequest) over a scripted session of 200 passes that ends with
 *   ≈150k tokens of history: p50, p95, and pass 200 / pass 10 (the cost of a pass must grow with what is new);
 * - the floor measured in the same run: JSON.stringify of the final request body;
 * - instruction resolution (gather from disk + freeze) of the PostHog and pydantic-ai trees, cold and warm.
 *
 * Each pass is timed on its first build, with the history objects new to the builder, exactly as the loop would
 * call it. The session is replayed several times with fresh objects and each pass keeps the median over the
 * replays, so one garbage collection does not become a pass's figure.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { gatherProjectContext } from '../src-main/node/instructions'
import {
  buildPromptPlan,
  freezeSession,
  renderRequest,
  type FrozenSession,
  type HistoryMessage,
  type PromptInput,
} from '../src-main/engine/prompt'
import type { WireTool } from '../src-main/engine/model/wire'
import { percentile, round, type Bench } from './bench'

const TREES = join(__dirname, '../test/fixtures/real/instructions')
const PASSES = 200
const REPLAYS = 51
const STRINGIFY_RUNS = 41
const WARM_RUNS = 15
/** Characters of history per pass: 200 passes × 2,600 characters of tool output, plus the calls and the 40k-character PostHog system block, ≈ 150k tokens at 4 characters a token. */
const CHARS_PER_PASS = 2600

const hasher = { sha256Hex: (s: string) => createHash('sha256').update(s).digest('hex') }
const gatherOptions = { homeDir: join(__dirname, 'no-home'), loupeHome: join(__dirname, 'no-home/.loupe'), now: Date.UTC(2026, 10, 29) }

/** A small deterministic generator, so every run builds the same session. */
function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

function tools(): WireTool[] {
  const names = ['read', 'write', 'edit', 'glob', 'grep', 'list', 'bash', 'remember', 'todo', 'skill', 'compact', 'web_fetch', 'ask', 'diff', 'test']
  return names.reverse().map((name) => ({
    name,
    description: `The ${name} tool. `.repeat(12),
    input_schema: { type: 'object', properties: { path: { type: 'string', description: 'A path relative to the root.' }, limit: { type: 'number' } }, required: ['path'] },
  }))
}

const LINE = 'export function example(value: number): number { return value * 2 } // a line of code\n'

/** The messages one pass adds: the assistant's reply with a tool call, and the tool's result. */
function passMessages(pass: number, random: () => number): [HistoryMessage, HistoryMessage] {
  const resultChars = Math.floor(CHARS_PER_PASS * (0.4 + 1.2 * random()))
  const text = LINE.repeat(Math.ceil(resultChars / LINE.length)).slice(0, resultChars)
  return [
    {
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: `Reading the next file for step ${pass}.` },
          { type: 'tool_use', id: `toolu_${pass}`, name: 'read', input: { path: `src/module-${pass}.ts`, limit: 400 } },
        ],
      },
      provenance: { entryIds: [`a${pass}`], kind: 'assistant' },
    },
    {
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${pass}`, content: text }] },
      provenance: { entryIds: [`r${pass}`], kind: 'tool_results' },
    },
  ]
}

/** One replay of the session: the build time of each pass, and the last input. */
function replay(frozen: FrozenSession, toolList: WireTool[]): { times: number[]; last: PromptInput } {
  // Every message of the session is made before the clock starts, as fresh objects for this replay, so the
  // timed region holds only the builder's own work (and its first sight of each new message).
  const random = prng(42)
  const script: Array<[HistoryMessage, HistoryMessage]> = []
  for (let pass = 1; pass <= PASSES; pass++) script.push(passMessages(pass, random))
  const history: HistoryMessage[] = [
    { message: { role: 'user', content: [{ type: 'text', text: 'Refactor the modules one by one.' }] }, provenance: { entryIds: ['u0'], kind: 'user_input' } },
  ]
  const settings = { features: { sandbox: true, hooks: false, todo: true, skills: true }, staticCacheTtl1h: true }
  const times: number[] = []
  let previousTailIndex: number | null = null
  let input: PromptInput | null = null
  for (let pass = 1; pass <= PASSES; pass++) {
    input = {
      model: 'claude-sonnet-4-6',
      maxTokens: 16_000,
      settings,
      tools: toolList,
      project: frozen.project,
      session: frozen.session,
      context: frozen.context,
      history: history.slice(),
      previousTailIndex,
      hasher,
    }
    const t0 = performance.now()
    renderRequest(buildPromptPlan(input))
    times.push(performance.now() - t0)
    previousTailIndex = history.length - 1
    history.push(...script[pass - 1]!)
  }
  return { times, last: input! }
}

async function resolveTrees(): Promise<void> {
  for (const tree of ['posthog', 'pydantic-ai']) {
    const g = await gatherProjectContext(join(TREES, tree), gatherOptions)
    freezeSession(g, { contextWindowTokens: 200_000, skills: true })
  }
}

const bench: Bench = {
  figures: [
    'prompt.build_p50_ms',
    'prompt.build_p95_ms',
    'prompt.build_ratio_200_10',
    'prompt.build_vs_stringify_p95',
    'prompt.instructions_cold_ms',
    'prompt.instructions_warm_ms',
  ],
  async run() {
    // Cold first, before anything else in this process has run the gathering code.
    const coldStart = performance.now()
    await resolveTrees()
    const coldMs = performance.now() - coldStart
    const warm: number[] = []
    for (let i = 0; i < WARM_RUNS; i++) {
      const t0 = performance.now()
      await resolveTrees()
      warm.push(performance.now() - t0)
    }

    const g = await gatherProjectContext(join(TREES, 'posthog'), gatherOptions)
    const frozen = freezeSession(g, { contextWindowTokens: 200_000, skills: true })
    const toolList = tools()
    replay(frozen, toolList) // warm the JIT; not counted
    const perPass: number[][] = Array.from({ length: PASSES }, () => [])
    let last: PromptInput | null = null
    for (let r = 0; r < REPLAYS; r++) {
      const run = replay(frozen, toolList)
      run.times.forEach((t, i) => perPass[i]!.push(t))
      last = run.last
    }
    const passMedians = perPass.map((samples) => percentile(samples, 50))
    const buildP50 = percentile(passMedians, 50)
    const buildP95 = percentile(passMedians, 95)
    const ratio = passMedians[PASSES - 1]! / passMedians[9]!

    const finalRequest = renderRequest(buildPromptPlan(last!))
    const stringify: number[] = []
    let bytes = 0
    for (let i = 0; i < STRINGIFY_RUNS; i++) {
      const t0 = performance.now()
      bytes = JSON.stringify(finalRequest).length
      stringify.push(performance.now() - t0)
    }
    const stringifyP95 = percentile(stringify, 95)
    const tokens = buildPromptPlan(last!).tokens.total

    return [
      { name: 'prompt.build_p50_ms', value: round(buildP50, 4), unit: 'ms', note: `${PASSES} passes, median of ${REPLAYS} replays per pass` },
      { name: 'prompt.build_p95_ms', value: round(buildP95, 4), unit: 'ms', goal: '< 5' },
      {
        name: 'prompt.build_ratio_200_10',
        value: round(ratio, 3),
        unit: 'ratio',
        goal: '< 2',
        note: `pass 200 ${round(passMedians[PASSES - 1]!, 4)} ms / pass 10 ${round(passMedians[9]!, 4)} ms`,
      },
      {
        name: 'prompt.build_vs_stringify_p95',
        value: round(buildP95 / stringifyP95, 4),
        unit: 'ratio',
        baseline: round(stringifyP95, 4),
        ratio: round(buildP95 / stringifyP95, 4),
        goal: '≤ 2.5',
        note: `JSON.stringify of the final body: ${bytes} characters, ≈${tokens} tokens; stringify p50 ${round(percentile(stringify, 50), 4)} ms`,
      },
      { name: 'prompt.instructions_cold_ms', value: round(coldMs, 2), unit: 'ms', note: 'PostHog + pydantic-ai trees, gather from disk and freeze, first run in the process' },
      { name: 'prompt.instructions_warm_ms', value: round(percentile(warm, 50), 2), unit: 'ms', note: `median of ${WARM_RUNS} runs` },
    ]
  },
}

export default bench
