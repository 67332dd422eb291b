import { describe, expect, it } from 'vitest'
import { describeBlocks } from '../../../src-renderer/features/inspector/model/blocks'
import { comparablePass, firstChange, passCounts, summarizeChange, withoutCacheControl, type FirstChange, type PassCounts } from '../../../src-renderer/features/inspector/model/first-change'
import { breakpointReport, type UsageLike } from '../../../src-renderer/features/inspector/model/breakpoints'
import { readAttribution } from '../../../src-renderer/features/inspector/model/attribution'
import { prettyRequest } from '../../../src-renderer/features/inspector/model/pretty'
import { parseBody } from '../../../src-renderer/features/inspector/model/pretty'
import type { PassDetailView } from '../../../src-preload/contract'
import { recordedPasses } from './fixture'

function comparable(pass: PassDetailView, edit?: (body: Record<string, unknown>) => void) {
  const body = parseBody(pass.requestBody)!
  edit?.(body)
  return comparablePass(body, describeBlocks(pass.segments, pass.plan))
}

describe('firstChange', () => {
  const passes = recordedPasses()

  it('pass 2 against pass 1: the first change is the new history block', () => {
    const change = firstChange(comparable(passes[0]!), comparable(passes[1]!))
    // Pass 1: 10 tools, 2 system blocks, messages[0]. Pass 2 adds the assistant's reply and the tool result.
    expect(change).toMatchObject({ kind: 'block', identical: 13, index: 13, path: 'messages[1]', change: 'added', label: 'assistant' })
    expect(summarizeChange(change)).toMatch(/^13 blocks identical, first change at block 14 \(messages\[1\] · assistant; new block\), ≈\d+ tokens from it on \(estimated from characters: the pass has no count\)\.$/)
  })

  it('ignores a breakpoint that moved off an earlier message', () => {
    // Taking the previous-tail marker off messages[4] leaves the message the same for the cache.
    const before = comparable(passes[3]!)
    const after = comparable(passes[3]!, (body) => {
      const m = (body.messages as Array<{ content: Array<Record<string, unknown>> }>)[4]!
      delete m.content[0]!.cache_control
    })
    expect(firstChange(before, after)).toEqual({ kind: 'identical', identical: 19 })
  })

  it('counts the tokens from the change to the end of the newer pass', () => {
    const after = comparable(passes[1]!)
    const change = firstChange(comparable(passes[0]!), after)
    expect(change.kind === 'block' && change.tokensAfter).toBe(after.blocks.slice(13).reduce((s, b) => s + b.tokens, 0))
  })

  it('finds an edited system block before any history', () => {
    const change = firstChange(
      comparable(passes[3]!),
      comparable(passes[3]!, (body) => {
        ;(body.system as Array<{ text: string }>)[1]!.text += ' edited'
      }),
    )
    expect(change).toMatchObject({ kind: 'block', path: 'system[1]', change: 'changed', identical: 11, label: 'system · session' })
  })

  it('reports a model switch before any block', () => {
    const change = firstChange(comparable(passes[0]!), comparable(passes[1]!, (b) => (b.model = 'claude-opus-4-6')))
    expect(change).toMatchObject({ kind: 'model', from: 'claude-sonnet-4-6', to: 'claude-opus-4-6' })
    expect(summarizeChange(change)).toMatch(/^Model changed \(claude-sonnet-4-6 → claude-opus-4-6\): the cache is per model, so all ≈[\d,]+ tokens are paid again \(estimated from characters\)\.$/)
    expect(summarizeChange(change, { total: 2724, read: 0, readBlocks: 0, estimated: 2200, lost: null })).toMatch(/so all 2,724 tokens are paid again \(counted\)\.$/)
  })

  it('says what a pass switched back read from its own model\'s earlier passes, not that everything was paid again', () => {
    const change = firstChange(comparable(passes[1]!, (b) => (b.model = 'claude-opus-4-6')), comparable(passes[1]!))
    expect(summarizeChange(change, { total: 6400, read: 6315, readBlocks: null, estimated: 5000, lost: null })).toBe(
      'Model changed (claude-opus-4-6 → claude-sonnet-4-6): the cache is per model, so nothing the earlier pass left cached is read; the 6,315 tokens this pass read are what claude-sonnet-4-6 kept from its own earlier passes.',
    )
  })

  it('compares as the cache saw it on a model that drops earlier turns\' thinking: a new human turn changes the answer that thought', () => {
    const think = { type: 'thinking', thinking: 'plan', signature: 'sig' }
    const ask = { role: 'user', content: [{ type: 'text', text: 'ask' }] }
    const call = { role: 'assistant', content: [think, { type: 'tool_use', id: 't1', name: 'read_file', input: {} }] }
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }
    const answer = { role: 'assistant', content: [{ type: 'text', text: 'done' }] }
    const next = { role: 'user', content: [{ type: 'text', text: 'next' }] }
    const blocksOf = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ ordinal: i, path: `messages[${i}]`, area: 'messages' as const, index: i, label: `m${i}`, detail: '', files: [], entryIds: [], tokens: 10, breakpoint: null }))
    const before = { model: 'claude-haiku-4-5', messages: [ask, call, result] }
    const after = { model: 'claude-haiku-4-5', messages: [ask, call, result, answer, next] }
    expect(firstChange(comparablePass(before, blocksOf(3), true), comparablePass(after, blocksOf(5), true))).toMatchObject({ kind: 'block', path: 'messages[1]', change: 'changed', identical: 1 })
    // A model that keeps it sees the old messages unchanged.
    expect(firstChange(comparablePass(before, blocksOf(3)), comparablePass(after, blocksOf(5)))).toMatchObject({ kind: 'block', path: 'messages[3]', change: 'added', identical: 3 })
  })

  it('reports a thinking change at the first message', () => {
    const change = firstChange(comparable(passes[1]!), comparable(passes[1]!, (b) => (b.thinking = { type: 'enabled', budget_tokens: 1024 })))
    expect(change).toMatchObject({ kind: 'block', path: 'messages[0]', change: 'settings' })
  })

  it('reports removed blocks when the newer pass is a prefix of the older', () => {
    const change = firstChange(comparable(passes[1]!), comparable(passes[0]!))
    expect(change).toMatchObject({ kind: 'block', change: 'removed', identical: 13, tokensAfter: 0 })
  })

  it('strips cache_control at any depth and nothing else', () => {
    expect(withoutCacheControl({ a: [{ cache_control: 1, b: 2 }], cache_control: {}, c: null })).toEqual({ a: [{ b: 2 }], c: null })
  })
})

describe('summarizeChange with the pass\'s own counts', () => {
  const passes = recordedPasses()

  /** The pass's counts as the Diff view takes them: its usage, where its breakpoint report says the read ended. */
  function countsOf(pass: PassDetailView): PassCounts | null {
    const blocks = describeBlocks(pass.segments, pass.plan)
    const report = breakpointReport(blocks, prettyRequest(parseBody(pass.requestBody)!).markers, pass.usage as UsageLike | null, readAttribution(pass.attribution))
    return passCounts(pass.usage as UsageLike | null, blocks, report.cachedThroughOrdinal, readAttribution(pass.attribution)?.lostTokens ?? null)
  }

  it('says the counted tokens from the change on when the read ended right before it, not an estimate beside the count', () => {
    // Pass 2 read everything pass 1 left, up to the block before its first change.
    const change = firstChange(comparable(passes[0]!), comparable(passes[1]!))
    const usage = passes[1]!.usage as UsageLike
    const counts = countsOf(passes[1]!)!
    expect(counts.readBlocks).toBe(13)
    const paid = usage.input_tokens + usage.cache_creation_input_tokens
    expect(summarizeChange(change, counts)).toBe(
      `13 blocks identical, first change at block 14 (messages[1] · assistant; new block): the pass read the ${usage.cache_read_input_tokens.toLocaleString('en-US')} tokens before it from the cache and paid for the ${paid.toLocaleString('en-US')} from it on (counted).`,
    )
  })

  // An AGENTS.md edit applied mid-session: the read stops at system[0], the pass line says what was lost.
  const edited: FirstChange = { kind: 'block', identical: 12, index: 12, path: 'system[1]', label: 'system · session', change: 'changed', tokensAfter: 1021 }

  it('ties the counted tokens from the change on to the loss the pass line gives', () => {
    expect(summarizeChange(edited, { total: 3957, read: 2555, readBlocks: 12, estimated: 3100, lost: 1326 })).toBe(
      '12 blocks identical, first change at block 13 (system[1] · system · session; changed): the pass read the 2,555 tokens before it from the cache and paid for the 1,402 from it on (counted; 1,326 of them could have been read).',
    )
  })

  it('scales the estimate to the pass\'s count, and says so, where the read ended elsewhere', () => {
    expect(summarizeChange(edited, { total: 3957, read: 1900, readBlocks: 11, estimated: 3100, lost: 1326 })).toBe(
      '12 blocks identical, first change at block 13 (system[1] · system · session; changed), ≈1,303 tokens from it on (estimated from characters, scaled to the 3,957 the pass counted).',
    )
  })

  it('says an estimate is one when the pass has no count', () => {
    expect(summarizeChange(edited, null)).toBe('12 blocks identical, first change at block 13 (system[1] · system · session; changed), ≈1,021 tokens from it on (estimated from characters: the pass has no count).')
    expect(passCounts(null, [], -1)).toBeNull()
  })
})
