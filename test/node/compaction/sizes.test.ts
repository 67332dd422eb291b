/**
 * A checkpoint's sizes before and after, as `compaction.list` gives them (decision 0019): one basis, the context
 * the next pass sends at the checkpoint. The message sent after the checkpoint is no effect of the compaction and
 * is not counted in its "after"; before the next pass runs, the after is the estimate on the real count's scale.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { openHarness, type Harness } from './harness'

const FILES = {
  'README.md': '# Demo\n\nThe API is versioned under /v2. Keep handlers small.\n',
  'src/api.ts': Array.from({ length: 150 }, (_, i) => `export function handler${i}() { return { version: 2, route: '/v2/items/${i}' } }`).join('\n'),
  'docs/notes.md': '# Notes\n\nDecision: the API returns JSON only.\n'.repeat(20),
}

interface Side {
  tokens: number
  measured: boolean
  passSeq: number | null
}
interface Listed {
  checkpoints: Array<{ checkpoint: Record<string, any>; realTokensAfter: number | null; context: { before: Side; after: Side & { addedSince: number } } }>
}
interface Pass {
  seq: number
  kind: string
  usage: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; output_tokens: number } | null
}

describe('a checkpoint’s sizes', () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('compares the context the next pass sends, without and with the compaction: the message sent after it is not counted', async () => {
    h = await openHarness({ files: FILES })
    for (const text of ['read README.md', 'find "handler"', 'find "Decision"', 'read src/api.ts']) expect(await h.send(text)).toBe('end_turn')
    const passes = await h.call<Pass[]>('pass.list', { sessionId: h.sessionId })
    const last = passes.filter((p) => p.kind === 'main').at(-1)!
    expect(await h.send('/compact')).toBe('compacted')

    let listed = await h.call<Listed>('compaction.list', { sessionId: h.sessionId })
    const { checkpoint, context } = listed.checkpoints[0]!
    // Before: the last pass's input and its answer (what the next pass would have sent), the figure the threshold reads.
    const u = last.usage!
    expect(context.before).toEqual({ tokens: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens, measured: true, passSeq: last.seq })
    expect(context.before.tokens).toBe(checkpoint.tokens.before.real)
    // After, not measured yet: the estimate on the same scale as the real count before it.
    const provisional = Math.round((checkpoint.tokens.after.estimated * checkpoint.tokens.before.real) / checkpoint.tokens.before.estimated)
    expect(context.after).toEqual({ tokens: provisional, measured: false, passSeq: null, addedSince: 0 })

    // A long message after the checkpoint: the first pass after sends it, but the compaction did not add it.
    const long = `note this down, then say ok: ${'the parser keeps its state in one object. '.repeat(400)}`
    expect(await h.send(long)).toBe('end_turn')
    listed = await h.call<Listed>('compaction.list', { sessionId: h.sessionId })
    const measured = listed.checkpoints[0]!
    const first = (await h.call<Pass[]>('pass.list', { sessionId: h.sessionId })).find((p) => p.kind === 'main' && p.seq > last.seq)!
    expect(measured.realTokensAfter).not.toBeNull()
    expect(measured.context.after.measured).toBe(true)
    expect(measured.context.after.passSeq).toBe(first.seq)
    expect(measured.context.after.addedSince).toBe(Math.ceil(long.length / 4))
    expect(measured.context.after.tokens).toBe(measured.realTokensAfter! - measured.context.after.addedSince)
    // Like with like: the measured after lands near the estimate, not a long message's worth above it.
    expect(Math.abs(measured.context.after.tokens - provisional)).toBeLessThan(measured.context.after.addedSince / 4)
    expect(measured.context.after.tokens).toBeLessThan(context.before.tokens)
    expect(measured.context.before).toEqual(context.before)
  })
})
