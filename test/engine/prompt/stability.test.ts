/**
 * Byte stability over a scripted session of 50 passes (docs/context-engine.md "The two rules", rule 2): everything
 * above the newest breakpoint of one pass reaches the next pass unchanged, while the world the session started in
 * keeps changing — the clock moves, files appear at the root, commits land.
 */
import { describe, expect, it } from 'vitest'
import { buildPromptPlan, freezeSession, renderRequest, type HistoryMessage, type PromptInput } from '../../../src-main/engine/prompt'
import { assistantToolUse, fakeHasher, gathered, SETTINGS, TOOLS, toolResult, user } from './fakes'
import { cacheView } from './cache-order'

/** The world at pass `k`: a later date, one more file at the root, a new HEAD. */
function worldAt(k: number) {
  return gathered({
    files: { 'AGENTS.md': { text: '# Agents\n\nKeep answers short.' } },
    instructions: [['project', 'AGENTS.md']],
    facts: {
      date: `2026-12-${String(1 + (k % 28)).padStart(2, '0')}`,
      listing: [{ name: 'src', isDirectory: true }, ...Array.from({ length: k }, (_, i) => ({ name: `new-${i}.txt`, isDirectory: false }))],
      listingTotal: 1 + k,
      git: { branch: 'main', head: k.toString(16).padStart(40, '0') },
    },
  })
}

/** Runs the scripted session; `fresh` rebuilds every input object each pass, as a loop reading from a database would. */
function runSession(fresh: boolean): string[] {
  const frozen = freezeSession(worldAt(0), { contextWindowTokens: 200_000, skills: true })
  const hasher = fakeHasher()
  const history: HistoryMessage[] = [user('Tidy up the project.', 'u0')]
  const bodies: string[] = []
  let previousTailIndex: number | null = null
  for (let pass = 1; pass <= 50; pass++) {
    const world = worldAt(pass)
    // A loop re-gathers before each user turn to notice changed files; the frozen values must not follow it.
    expect(world.facts.listingTotal).toBe(pass + 1)
    const input: PromptInput = {
      model: 'claude-sonnet-4-6',
      maxTokens: 8000,
      settings: SETTINGS,
      tools: TOOLS,
      project: frozen.project,
      session: frozen.session,
      context: frozen.context,
      history,
      previousTailIndex,
      hasher,
    }
    const built: PromptInput = fresh ? { ...structuredClone({ ...input, hasher: null }), hasher } : input
    const body = JSON.stringify(renderRequest(buildPromptPlan(built)))
    bodies.push(body)
    previousTailIndex = history.length - 1
    history.push(assistantToolUse(`a${pass}`, `tu${pass}`, `src/f${pass}.ts`))
    history.push(toolResult(`r${pass}`, `tu${pass}`, `contents of f${pass}`.repeat(pass % 7 + 1)))
    if (pass % 10 === 0) history.push(user(`Next step ${pass}.`, `u${pass}`))
  }
  return bodies
}

describe('byte stability over 50 passes', () => {
  for (const fresh of [false, true]) {
    it(`keeps every byte above the newest breakpoint (${fresh ? 'new objects each pass' : 'same objects'})`, () => {
      const bodies = runSession(fresh)
      for (let k = 0; k + 1 < bodies.length; k++) {
        const now = cacheView(JSON.parse(bodies[k]!))
        const next = cacheView(JSON.parse(bodies[k + 1]!))
        const newest = now.breakpoints.at(-1)!
        expect(next.blocks.slice(0, newest + 1)).toEqual(now.blocks.slice(0, newest + 1))
        // The next pass marks that same block again, so its hit never depends on the 20-block lookback.
        expect(next.breakpoints).toContain(newest)
      }
    })
  }

  it('sends the same tools, system blocks and session context on every pass', () => {
    const bodies = runSession(false).map((b) => JSON.parse(b) as ReturnType<typeof renderRequest>)
    for (const body of bodies) {
      expect(body.tools).toEqual(bodies[0]!.tools)
      expect(body.system).toEqual(bodies[0]!.system)
      expect(body.messages[0]!.content[0]).toEqual(bodies[0]!.messages[0]!.content[0])
    }
    expect(JSON.stringify(bodies[0]!.messages[0]!.content[0])).toContain('Date: 2026-12-01')
  })

  it('would change if the session context were taken again: the world really moved', () => {
    const first = freezeSession(worldAt(0), { contextWindowTokens: 200_000, skills: true }).context.text
    const later = freezeSession(worldAt(49), { contextWindowTokens: 200_000, skills: true }).context.text
    expect(later).not.toBe(first)
  })
})
