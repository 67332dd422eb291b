import { describe, expect, it } from 'vitest'
import { describeBlocks } from '../../../src-renderer/features/inspector/model/blocks'
import { comparablePass, firstChange, summarizeChange, withoutCacheControl } from '../../../src-renderer/features/inspector/model/first-change'
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
    expect(summarizeChange(change)).toMatch(/^13 blocks identical, first change at block 14 \(messages\[1\] · assistant; new block\), ≈\d+ tokens after it\.$/)
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
    expect(summarizeChange(change)).toMatch(/^Model changed \(claude-sonnet-4-6 → claude-opus-4-6\): the cache is per model, so all ≈[\d,]+ tokens are paid again\.$/)
    expect(summarizeChange(change, 0)).toMatch(/so all ≈[\d,]+ tokens are paid again\.$/)
  })

  it('says what a pass switched back read from its own model\'s earlier passes, not that everything was paid again', () => {
    const change = firstChange(comparable(passes[1]!, (b) => (b.model = 'claude-opus-4-6')), comparable(passes[1]!))
    expect(summarizeChange(change, 6315)).toBe(
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
