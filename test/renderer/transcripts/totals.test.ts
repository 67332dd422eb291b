/**
 * The totals of an imported session, picked from the Claude Code panel: reads (and imports, which show them) overlap.
 * Under Node, with the contract's client replaced by one whose answers the test releases in any order: the totals
 * shown are always those of the session picked last.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { answerHeld, held, settle } from '../../support/held-client'


vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)

const { importOne, showTotals } = await import('../../../src-renderer/features/transcripts/actions')
const { useTranscriptsStore } = await import('../../../src-renderer/state/transcripts')

const totals = (sessionId: string) => ({ sessionId, requests: 1 }) as never

/** Answers the oldest held request named `name` whose input has `key` equal to `value`. */
const answer = (name: string, key: 'sessionId' | 'path', value: string, with_: unknown) => answerHeld(name, { [key]: value }, with_)
const pickedPath = () => useTranscriptsStore.getState().picked?.path ?? null

beforeEach(() => {
  held.length = 0
  useTranscriptsStore.setState({ picked: null, importing: [], error: null, folder: null })
})

describe("an imported session's totals", () => {
  it('are those of the session picked last when the one picked before answers after it', async () => {
    void showTotals('/cc/x.jsonl', 'ses_x')
    void showTotals('/cc/y.jsonl', 'ses_y')
    answer('transcripts.totals', 'sessionId', 'ses_y', totals('ses_y'))
    await settle()
    answer('transcripts.totals', 'sessionId', 'ses_x', totals('ses_x'))
    await settle()
    expect(pickedPath()).toBe('/cc/y.jsonl')
  })

  it('stay those of the session picked while another was being imported', async () => {
    void importOne('/cc/x.jsonl')
    void showTotals('/cc/y.jsonl', 'ses_y')
    answer('transcripts.totals', 'sessionId', 'ses_y', totals('ses_y'))
    await settle()
    answer('transcripts.import', 'path', '/cc/x.jsonl', { totals: totals('ses_x') })
    await settle()
    expect(pickedPath()).toBe('/cc/y.jsonl')
    expect(useTranscriptsStore.getState().importing).toEqual([])
  })
})
