/**
 * The totals of an imported session, picked from the Claude Code panel: reads (and imports, which show them) overlap.
 * Under Node, with the contract's client replaced by one whose answers the test releases in any order: the totals
 * shown are always those of the session picked last.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'

type Pending = { name: string; input: { sessionId?: string; path?: string }; answer: (value: unknown) => void }
const pending: Pending[] = []

vi.mock('../../../src-renderer/platform/client', () => {
  const request = (name: string, input: Pending['input']) => new Promise((resolve) => pending.push({ name, input, answer: (value) => resolve({ ok: true, value }) }))
  return {
    client: { request, on: () => () => {} },
    call: async (name: string, input: Pending['input']) => ((await request(name, input)) as { value: unknown }).value,
  }
})

const { importOne, showTotals } = await import('../../../src-renderer/features/transcripts/actions')
const { useTranscriptsStore } = await import('../../../src-renderer/state/transcripts')

const totals = (sessionId: string) => ({ sessionId, requests: 1 }) as never

/** Answers the oldest pending request named `name` whose input has `key` equal to `value`. */
function answer(name: string, key: keyof Pending['input'], value: string, with_: unknown): void {
  const i = pending.findIndex((p) => p.name === name && p.input[key] === value)
  if (i < 0) throw new Error(`no pending ${name} for ${value}: ${JSON.stringify(pending.map((p) => [p.name, p.input]))}`)
  pending.splice(i, 1)[0]!.answer(with_)
}
const flush = () => new Promise((r) => setTimeout(r, 0))
const pickedPath = () => useTranscriptsStore.getState().picked?.path ?? null

beforeEach(() => {
  pending.length = 0
  useTranscriptsStore.setState({ picked: null, importing: [], error: null, folder: null })
})

describe("an imported session's totals", () => {
  it('are those of the session picked last when the one picked before answers after it', async () => {
    void showTotals('/cc/x.jsonl', 'ses_x')
    void showTotals('/cc/y.jsonl', 'ses_y')
    answer('transcripts.totals', 'sessionId', 'ses_y', totals('ses_y'))
    await flush()
    answer('transcripts.totals', 'sessionId', 'ses_x', totals('ses_x'))
    await flush()
    expect(pickedPath()).toBe('/cc/y.jsonl')
  })

  it('stay those of the session picked while another was being imported', async () => {
    void importOne('/cc/x.jsonl')
    void showTotals('/cc/y.jsonl', 'ses_y')
    answer('transcripts.totals', 'sessionId', 'ses_y', totals('ses_y'))
    await flush()
    answer('transcripts.import', 'path', '/cc/x.jsonl', { totals: totals('ses_x') })
    await flush()
    expect(pickedPath()).toBe('/cc/y.jsonl')
    expect(useTranscriptsStore.getState().importing).toEqual([])
  })
})
