/**
 * A session against a real folder: the world moves under it (clock, new files at the root, new commits, an edited
 * AGENTS.md), the loop gathers again before each turn as it would to notice changed files, and the bytes above the
 * newest breakpoint never move until the user applies the edit — which then moves the session block only, and names
 * the edit as the reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { gatherProjectContext } from '../../../src-main/node/instructions'
import {
  buildPromptPlan,
  diffGathered,
  freezeSession,
  freezeSessionSection,
  renderRequest,
  type HistoryMessage,
  type PromptInput,
} from '../../../src-main/engine/prompt'
import type { WireRequest } from '../../../src-main/engine/model/wire'
import { cacheView } from '../../engine/prompt/cache-order'
import { SETTINGS, TOOLS, assistantToolUse, toolResult, user } from '../../engine/prompt/fakes'
import { sandbox, type Sandbox } from './tmp'

const hasher = { sha256Hex: (s: string) => createHash('sha256').update(s).digest('hex') }
const DAY_MS = 24 * 60 * 60 * 1000

let box: Sandbox
beforeEach(() => {
  box = sandbox()
  box.write('AGENTS.md', '# Agents\n\nRun the tests before you finish.')
  box.write('package.json', JSON.stringify({ scripts: { test: 'vitest run' } }))
  box.write('.git/HEAD', 'ref: refs/heads/main\n')
  box.write('.git/refs/heads/main', `${'0'.repeat(40)}\n`)
})
afterEach(() => box.cleanup())

function commit(n: number): void {
  box.write('.git/refs/heads/main', `${n.toString(16).padStart(40, '0')}\n`)
}

describe('a 50-pass session against a folder that keeps changing', () => {
  it('keeps the bytes above the newest breakpoint; an edit becomes a note, then an attributed re-freeze', async () => {
    const start = Date.UTC(2026, 10, 29, 9)
    const opts = (now: number) => ({ homeDir: box.home, loupeHome: box.loupeHome, now })
    const atStart = await gatherProjectContext(box.root, opts(start))
    const frozen = freezeSession(atStart, { contextWindowTokens: 200_000, skills: true })
    const history: HistoryMessage[] = [user('Tidy up.', 'u0')]
    let session = frozen.session
    let previousTailIndex: number | null = null
    let previous: WireRequest | null = null
    const noted = new Set<string>()
    const firstContext = { type: 'text', text: frozen.context.text }

    for (let pass = 1; pass <= 50; pass++) {
      if (pass === 40) {
        // The user applies the AGENTS.md edit now: the session block is frozen again, from a fresh gathering.
        const fresh = await gatherProjectContext(box.root, opts(start + pass * DAY_MS))
        session = freezeSessionSection(fresh, { origin: { kind: 'apply_now', entryId: 'apply-1', paths: ['AGENTS.md'] }, contextWindowTokens: 200_000, skills: true })
      }
      const input: PromptInput = {
        model: 'claude-sonnet-4-6',
        maxTokens: 8000,
        settings: SETTINGS,
        tools: TOOLS,
        project: frozen.project,
        session,
        context: frozen.context,
        history: [...history],
        previousTailIndex,
        hasher,
      }
      const plan = buildPromptPlan(input)
      const request = renderRequest(plan)
      if (previous !== null) {
        const before = cacheView(previous)
        const after = cacheView(request)
        const newest = before.breakpoints.at(-1)!
        if (pass === 40) {
          // Apply-now: tools and the static block stay; the session block moves, and the plan says why.
          expect(after.blocks.slice(0, 4)).toEqual(before.blocks.slice(0, 4))
          expect(after.blocks[4]).not.toEqual(before.blocks[4])
          expect(plan.sessionOrigin).toEqual({ kind: 'apply_now', entryId: 'apply-1', paths: ['AGENTS.md'] })
        } else {
          expect(after.blocks.slice(0, newest + 1)).toEqual(before.blocks.slice(0, newest + 1))
        }
      }
      if (pass === 21) expect(JSON.stringify(request.messages.at(-1))).toContain('[AGENTS.md was changed on disk')
      expect(request.system![1]!.text).toContain(pass < 40 ? 'Run the tests before you finish.' : 'Run the tests and the linter before you finish.')
      expect(request.messages[0]!.content[0]).toEqual(firstContext)

      // Between passes the world moves: a day passes, a file appears, a commit lands, and at pass 20 AGENTS.md is edited.
      const now = start + pass * DAY_MS
      box.write(`new-file-${pass}.txt`, 'x')
      commit(pass)
      if (pass === 20) box.write('AGENTS.md', '# Agents\n\nRun the tests and the linter before you finish.')
      const regathered = await gatherProjectContext(box.root, opts(now))
      expect(regathered.facts.listingTotal).toBeGreaterThan(atStart.facts.listingTotal)
      const changes = diffGathered(atStart, regathered).filter((c) => !noted.has(c.path))
      for (const c of changes) noted.add(c.path)

      previous = request
      previousTailIndex = history.length - 1
      history.push(assistantToolUse(`a${pass}`, `tu${pass}`, `src/f${pass}.ts`))
      const result = toolResult(`r${pass}`, `tu${pass}`, `contents ${pass}`)
      // A change travels as a note on the next user message; the frozen block stays as it was.
      const notes = changes.map((c) => ({ kind: 'file_changed' as const, path: c.path, fileKind: c.fileKind, change: c.change, entryId: `chg-${pass}` }))
      history.push(notes.length > 0 ? { ...result, notes } : result)
    }
    expect(noted).toEqual(new Set(['AGENTS.md']))
    expect(JSON.stringify(previous!.messages[0]!.content[0])).toContain('Date: 2026-11-29')
  })
})
