/**
 * The cache scenario suite (docs/cache-attribution.md "Tests"): each scenario's cause is known by construction, and
 * every pass's prediction is set against what the simulator's cache model did. Shared by the test and the bench
 * (`cache.scenarios_agreement`, `cache.unexplained`).
 */
import { KEEP_WARM_DELAY_MS } from '../../../src-main/engine/cache'
import type { ResponderOutput } from '../../../src-main/simulator/index'
import { projectGathered, runScenario, type PassCheck, type Scenario, type ScenarioResult } from './harness'

const FILE = (path: string) => `export function total(cart) {\n  return cart.items.reduce((sum, item) => sum + item.cents, 0)\n}\n// ${path}\n`.repeat(12)

const CHECKOUT_LOG = Array.from({ length: 120 }, (_, i) => `2026-11-29T14:${String(i % 60).padStart(2, '0')}:07Z checkout cart=${1000 + i} items=${(i % 7) + 1} total_cents=${10_000 + i * 37} status=${i % 5 === 0 ? 'failed: rounding mismatch' : 'ok'}`).join('\n')

const readCall = (path: string, id?: string): ResponderOutput => ({ content: [{ type: 'text', text: `Reading ${path}.` }, { type: 'tool_use', name: 'read_file', input: { path }, ...(id ? { id } : {}) }] })
const answer = (text: string): ResponderOutput => ({ content: [{ type: 'text', text }] })

/**
 * A user request answered by one read and a text answer: two passes. With `thinking`, each answer thinks first, as a
 * thinking model's do.
 */
async function readTurn(s: Scenario, request: string, path: string, expected: [PassCheck['expected'], PassCheck['expected']], thinking = false): Promise<void> {
  const think = (text: string) => (thinking ? [{ type: 'thinking' as const, thinking: `${text} `.repeat(20) }] : [])
  s.replies.push(
    { content: [...think(`I should read ${path} first.`), ...readCall(path).content] },
    { content: [...think(`${path} sums integer cents; that answers it.`), ...answer(`The total in ${path} sums the items in cents.`).content] },
  )
  s.user(request)
  await s.pass(expected[0])
  s.clock.advance(2_000)
  s.results(() => FILE(path))
  await s.pass(expected[1])
  s.clock.advance(20_000)
}

export const SCENARIOS: ReadonlyArray<() => Promise<ScenarioResult>> = [
  // Steady conversation: after the cold start, every pass reads what the previous one wrote.
  () =>
    runScenario('steady', {}, async (s) => {
      await readTurn(s, 'Why does checkout fail for carts over $100?', 'src/checkout.ts', ['cold', 'none'])
      await readTurn(s, 'And the refund path?', 'src/refund.ts', ['none', 'none'])
      await readTurn(s, 'Check the tax module too.', 'src/tax.ts', ['none', 'none'])
    }),

  // An instruction file edited and applied now: only system[1] moves; the static block still hits.
  () =>
    runScenario('instructions_applied_now', {}, async (s) => {
      await readTurn(s, 'Read the checkout code.', 'src/checkout.ts', ['cold', 'none'])
      const entry = s.store.entries.append(s.sessionId, [{ kind: 'instructions_applied', paths: ['AGENTS.md'] } as never], s.clock.now())[0]!
      s.refreeze(projectGathered({ agents: '# Agents\n\nRun `npm test` before you finish. Money is always integer cents. Never round half up.' }), { kind: 'apply_now', entryId: entry.id, paths: ['AGENTS.md'] })
      s.user('Go on with the new rule.')
      await s.pass('changed_block')
      s.clock.advance(5_000)
      s.user('Thanks.')
      await s.pass('none')
    }),

  // A fact saved with `remember` travels as a note after the breakpoints: it must not bust the cache.
  () =>
    runScenario('memory_saved', {}, async (s) => {
      s.replies.push({ content: [{ type: 'tool_use', name: 'remember', input: { fact: 'Deploys go through make ship.', scope: 'project' } }] }, answer('Saved.'))
      s.user('Remember that deploys go through make ship.')
      await s.pass('cold')
      s.clock.advance(2_000)
      s.results(() => 'Saved to .loupe/memory.md.', [{ kind: 'memory_saved', scope: 'project', text: '- Deploys go through make ship.', entryId: s.entryId() }])
      await s.pass('none')
      s.clock.advance(10_000)
      s.user('What did I ask you to remember?')
      await s.pass('none')
    }),

  // The tool set changed: tools come first, so everything is written again.
  () =>
    runScenario('tools_changed', {}, async (s) => {
      await readTurn(s, 'Read the checkout code.', 'src/checkout.ts', ['cold', 'none'])
      s.tools = s.tools.filter((t) => t.name !== 'glob')
      s.user('Carry on without glob.')
      await s.pass('changed_block')
      s.clock.advance(5_000)
      s.user('And again.')
      await s.pass('none')
    }),

  // Model switched and switched back: the switch misses; the way back reads the first model's entries up to where
  // the other model's answer begins.
  () =>
    runScenario('model_switch', {}, async (s) => {
      await readTurn(s, 'Read the checkout code.', 'src/checkout.ts', ['cold', 'none'])
      s.model = 'claude-opus-4-8'
      s.user('Now think harder about it.')
      await s.pass('model_changed')
      s.clock.advance(30_000)
      s.model = 'claude-sonnet-4-6'
      s.user('Back to the quick model.')
      await s.pass('model_changed')
      s.clock.advance(5_000)
      s.user('Thanks.')
      await s.pass('none')
    }),

  // A switch to a model whose minimum (Opus 4.6's 4,096) is over the whole prompt: that model caches none of it. The
  // switch is named, with the minimum; the passes after it are at their limit, the prefix below that model's minimum.
  // Then a switch to Haiku 4.5 (4,096 too) with a long log pasted: the prefix left is under the minimum, so nothing is
  // read, but this pass's own prompt is over it, so its tail is written and the next pass reads it.
  () =>
    runScenario('model_switch_below_minimum', {}, async (s) => {
      await readTurn(s, 'Read the checkout code.', 'src/checkout.ts', ['cold', 'none'])
      s.model = 'claude-opus-4-6'
      await readTurn(s, 'Now think harder about it.', 'src/refund.ts', ['model_changed', 'below_minimum'])
      s.model = 'claude-haiku-4-5'
      s.replies.push(answer('Every fifth cart fails on rounding.'), answer('Round per line, then sum.'))
      s.user(`Here is the checkout log:\n${CHECKOUT_LOG}`)
      await s.pass('model_changed')
      s.clock.advance(5_000)
      s.user('And the fix?')
      await s.pass('none')
    }),

  // Idle for 6 m 10 s: every 5-minute entry expired.
  () =>
    runScenario('ttl_expired', {}, async (s) => {
      await readTurn(s, 'Read the checkout code.', 'src/checkout.ts', ['cold', 'none'])
      // Idle since the last pass started: the 20 s after it (readTurn) and 5 m 50 s more.
      s.clock.advance(5 * 60_000 + 50_000)
      s.user('Back from lunch: where were we?')
      await s.pass('ttl_expired')
      s.clock.advance(5_000)
      s.user('Right.')
      await s.pass('none')
    }),

  // Idle 19 minutes after a turn ended: the pre-warm 4.5 minutes after the last pass reads what it cached and writes
  // the answer under a 1h marker, so the pass after the gap reads everything before the new message.
  () =>
    runScenario('keep_warm', {}, async (s) => {
      await readTurn(s, 'Read the checkout code.', 'src/checkout.ts', ['cold', 'none'])
      s.clock.advance(KEEP_WARM_DELAY_MS - 20_000)
      await s.keepWarm('none')
      s.clock.advance(19 * 60_000 - KEEP_WARM_DELAY_MS)
      s.user('Back from a break: and the refund path?')
      await s.pass('none')
      s.clock.advance(5_000)
      s.user('Thanks.')
      await s.pass('none')
    }),

  // A compaction soon after a pause a pre-warm bridged: the pre-warm's 1h markers on the system blocks kept their
  // entries alive with the tail's, so the pass after the checkpoint, whose history is all new, still reads the tools
  // and system. (With the tail's marker alone, those entries would have expired under it, unread since the pause.)
  () =>
    runScenario('keep_warm_then_compaction', {}, async (s) => {
      await readTurn(s, 'Read the checkout code.', 'src/checkout.ts', ['cold', 'none'])
      s.clock.advance(KEEP_WARM_DELAY_MS - 20_000)
      await s.keepWarm('none')
      s.clock.advance(11 * 60_000 - KEEP_WARM_DELAY_MS)
      await readTurn(s, 'Back from a break: and the refund path?', 'src/refund.ts', ['none', 'none'])
      s.replies.push(answer('Summary: the user asked about checkout and refunds; both sum cents.'))
      s.user('Summarise the conversation so far for a compaction.')
      await s.pass('none', { kind: 'summary' })
      const summary = s.history.at(-1)!.message.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
      const checkpoint = s.store.entries.append(s.sessionId, [{ kind: 'checkpoint', trigger: 'manual', view: { replaced: [] } } as never], s.clock.now())[0]!
      // Nothing saved since: the session block is frozen again to the same bytes.
      s.refreeze(projectGathered(), { kind: 'checkpoint', entryId: checkpoint.id })
      s.history = []
      s.previousLength = 0
      s.push({ role: 'user', content: [{ type: 'text', text: `[Conversation summary]\n\n${summary}` }, { type: 'text', text: 'Continue with the tax module.' }] }, 'compaction_summary', undefined, [checkpoint.id, s.entryId()])
      s.clock.advance(5_000)
      await s.pass('none')
    }),

  // Waiting 15 minutes on a tool call (an approval, a long command): the pre-warm answers the call with a
  // placeholder after the marker, and the results that come later read the whole prefix.
  () =>
    runScenario('keep_warm_pending_tool', {}, async (s) => {
      s.replies.push(readCall('src/tax.ts'), answer('The tax module rounds per line.'))
      s.user('Read the tax module.')
      await s.pass('cold')
      s.clock.advance(KEEP_WARM_DELAY_MS)
      await s.keepWarm('none')
      s.clock.advance(15 * 60_000)
      s.results(() => FILE('src/tax.ts'))
      await s.pass('none')
    }),

  // A 1h TTL on the static block survives a 30-minute gap; the 5-minute entries after it do not.
  () =>
    runScenario('ttl_1h_survives', { staticCacheTtl1h: true }, async (s) => {
      await readTurn(s, 'Read the checkout code.', 'src/checkout.ts', ['cold', 'none'])
      s.clock.advance(30 * 60_000 - 20_000)
      s.user('Back after a meeting.')
      await s.pass('ttl_expired')
    }),

  // Haiku 4.5 caches nothing below 4,096 tokens: the small prompt is never cached, and that is the limit.
  () =>
    runScenario('below_minimum', { model: 'claude-haiku-4-5' }, async (s) => {
      s.user('Hello.')
      await s.pass('cold')
      s.clock.advance(5_000)
      s.user('Anything to do?')
      await s.pass('below_minimum')
    }),

  // Without the kept tail marker, eleven parallel reads put the last write 24 positions back from the newest
  // breakpoint: past the 20-position lookback, so the read stops at the session block.
  () =>
    runScenario('lookback_exceeded', { keepTail: false }, async (s) => {
      const paths = Array.from({ length: 11 }, (_, i) => `src/module${i}.ts`)
      s.replies.push({ content: [{ type: 'text', text: 'Reading all modules.' }, ...paths.map((path) => ({ type: 'tool_use' as const, name: 'read_file', input: { path } }))] }, answer('All read.'))
      s.user('Read every module.')
      await s.pass('cold')
      s.clock.advance(2_000)
      s.results((_n, input) => `contents of ${(input as { path: string }).path}`)
      await s.pass('lookback_exceeded')
      s.clock.advance(2_000)
      s.user('Summarise them.')
      await s.pass('none')
    }),

  // Two passes sent at once: the second starts before the first's response begins, so it cannot read what the
  // first writes.
  () =>
    runScenario('concurrent', {}, async (s) => {
      s.user('Read the checkout code.')
      await s.pass('cold')
      s.clock.advance(10_000)
      s.user('Two questions at once.')
      let release!: () => void
      let entered!: () => void
      const gate = new Promise<void>((resolve) => (release = resolve))
      const inside = new Promise<void>((resolve) => (entered = resolve))
      s.replies.push(async () => {
        // The simulator calls the responder after its cache lookup and commits the writes when it returns.
        entered()
        await gate
        return answer('First answer.')
      }, answer('Second answer.'))
      const plan = s.plan()
      const first = s.sendUncommitted(plan)
      await inside
      s.clock.advance(1_000)
      const second = await s.sendUncommitted(plan)
      s.clock.advance(1_000)
      release()
      const a = await first
      s.previousLength = plan.messages.length
      s.attribute(a.commit(), plan, 'none')
      s.attribute(second.commit(), plan, 'concurrent')
    }),

  // Compaction: the summary request reuses the cached prefix; after the checkpoint the session block is frozen
  // again with the memory saved since, so system[1] moves.
  () =>
    runScenario('compaction', {}, async (s) => {
      await readTurn(s, 'Read the checkout code.', 'src/checkout.ts', ['cold', 'none'])
      await readTurn(s, 'And the refund path?', 'src/refund.ts', ['none', 'none'])
      s.replies.push(answer('Summary: the user asked about checkout and refunds; both sum cents.'))
      s.user('Summarise the conversation so far for a compaction.')
      await s.pass('none', { kind: 'summary' })
      const summary = s.history.at(-1)!.message.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
      const checkpoint = s.store.entries.append(s.sessionId, [{ kind: 'checkpoint', trigger: 'manual', view: { replaced: [] } } as never], s.clock.now())[0]!
      s.refreeze(projectGathered({ memory: '- The user deploys with `make ship`.\n- Refunds are always in cents.' }), { kind: 'checkpoint', entryId: checkpoint.id })
      s.history = []
      s.previousLength = 0
      // The head of the new view: the summary, then the user's next request, in one user message.
      s.push({ role: 'user', content: [{ type: 'text', text: `[Conversation summary]\n\n${summary}` }, { type: 'text', text: 'Continue with the tax module.' }] }, 'compaction_summary', undefined, [checkpoint.id, s.entryId()])
      s.clock.advance(5_000)
      await s.pass('changed_block')
      s.clock.advance(5_000)
      s.user('Thanks.')
      await s.pass('none')
    }),

  // A context edit trims an old tool result: the message it rewrote is the first changed block.
  () =>
    runScenario('context_edit', {}, async (s) => {
      await readTurn(s, 'Read the checkout code.', 'src/checkout.ts', ['cold', 'none'])
      await readTurn(s, 'And the refund path?', 'src/refund.ts', ['none', 'none'])
      const index = s.history.findIndex((m) => m.provenance.kind === 'tool_results')
      const old = s.history[index]!
      const resultEntry = old.provenance.entryIds[0]!
      s.store.entries.append(s.sessionId, [{ kind: 'context_edit', source: 'trim-old-tools', edits: [{ entryId: resultEntry, action: 'replace', content: '[trimmed]', reason: 'old tool output' }] } as never], s.clock.now())
      const block = old.message.content[0]!
      s.history = s.history.map((m, i) => (i === index ? { ...m, message: { role: 'user', content: [{ ...(block as object), content: '[trimmed: 1,000 characters of src/checkout.ts]' } as never] } } : m))
      s.user('Now the tax module.')
      await s.pass('changed_block')
      s.clock.advance(5_000)
      s.user('Thanks.')
      await s.pass('none')
    }),

  // Thinking on a model that keeps it (Sonnet 4.6, §2.5): earlier turns' thinking stays in the prefix, so a new
  // human turn reads everything before it.
  () =>
    runScenario('thinking_kept', { thinking: { type: 'adaptive' } }, async (s) => {
      await readTurn(s, 'Why does checkout fail for carts over $100?', 'src/checkout.ts', ['cold', 'none'], true)
      await readTurn(s, 'And the refund path?', 'src/refund.ts', ['none', 'none'], true)
    }),

  // Thinking on a model that strips it (Haiku 4.5, §2.5): the new human turn takes the earlier turn's thinking out
  // of the prefix, so the read stops before the first assistant message that lost it. No policy can read past it:
  // that is the limit, not a miss. (The first message carries a pasted log, so that prefix is above Haiku's
  // 4,096-token minimum.)
  () =>
    runScenario('thinking_stripped', { model: 'claude-haiku-4-5', thinking: { type: 'enabled', budget_tokens: 1024 } }, async (s) => {
      await readTurn(s, `Why does checkout fail for carts over $100? The log:\n${CHECKOUT_LOG}`, 'src/checkout.ts', ['cold', 'none'], true)
      await readTurn(s, 'And the refund path?', 'src/refund.ts', ['none', 'none'], true)
      s.replies.push(answer('Both paths round per line.'))
      s.user('Summarise.')
      await s.pass('none')
    }),
]

export interface SuiteResult {
  readonly scenarios: ReadonlyArray<ScenarioResult>
  readonly passes: number
  readonly agreed: number
  readonly causesMatched: number
  readonly unexplained: number
  readonly diagnosticsDisagreements: number
}

export async function runSuite(): Promise<SuiteResult> {
  const scenarios: ScenarioResult[] = []
  for (const run of SCENARIOS) scenarios.push(await run())
  const checks = scenarios.flatMap((s) => s.checks)
  return {
    scenarios,
    passes: checks.length,
    agreed: checks.filter((c) => c.attribution.agrees === true).length,
    causesMatched: checks.filter((c) => c.attribution.cause.kind === c.expected).length,
    unexplained: checks.filter((c) => c.attribution.cause.kind === 'unexplained').length,
    diagnosticsDisagreements: checks.filter((c) => c.attribution.diagnostics.disagree).length,
  }
}
