import { describe, expect, it } from 'vitest'
import { describeBlocks } from '../../../src-renderer/features/inspector/model/blocks'
import { contextMap, offBy } from '../../../src-renderer/features/inspector/model/context-map'
import { parseBody } from '../../../src-renderer/features/inspector/model/pretty'
import { recordedPasses } from './fixture'

describe('contextMap', () => {
  const pass = recordedPasses()[3]!
  const blocks = describeBlocks(pass.segments, pass.plan)
  const slices = contextMap(blocks, pass.segments, parseBody(pass.requestBody))
  const byKey = new Map(slices.map((s) => [s.key, s]))

  it('has a slice per source, in cache order', () => {
    expect(slices.map((s) => s.key)).toEqual([
      'tools',
      'static',
      'instructions',
      'file:CLAUDE.md',
      'memory',
      'session',
      'history:user_input',
      'history:assistant',
      'history:tool_results',
      'newest',
      'file:src/CLAUDE.md',
    ])
  })

  it('keeps the total: every estimated token lands in exactly one slice (up to rounding)', () => {
    const total = blocks.reduce((s, b) => s + b.tokens, 0)
    const sum = slices.reduce((s, x) => s + x.tokens, 0)
    expect(Math.abs(sum - total)).toBeLessThanOrEqual(slices.length)
  })

  it('gives an instruction file its share of the session block by its characters', () => {
    const system1 = blocks.find((b) => b.path === 'system[1]')!
    // Spans (provenance): instructions 0..209 holding CLAUDE.md 156..209, memory 211..436 holding
    // .loupe/memory.md 368..436; 434 characters in spans in all.
    expect(byKey.get('file:CLAUDE.md')!.tokens).toBe(Math.round((53 * system1.tokens) / 434))
    expect(byKey.get('instructions')!.tokens).toBe(Math.round((156 * system1.tokens) / 434))
    expect(byKey.get('file:CLAUDE.md')!.file).toBe('CLAUDE.md')
    expect(byKey.get('file:src/CLAUDE.md')!.group).toBe('instructions')
  })

  it('calls the last user message the newest input', () => {
    const pass1 = recordedPasses()[0]!
    const b = describeBlocks(pass1.segments, pass1.plan)
    const map = contextMap(b, pass1.segments, parseBody(pass1.requestBody))
    expect(map.map((s) => s.key)).toContain('newest')
    expect(map.map((s) => s.key)).toContain('session')
    expect(map.find((s) => s.key === 'newest')!.firstOrdinal).toBe(b.find((x) => x.path === 'messages[0]')!.ordinal)
  })

  it('puts a block without provenance in its area', () => {
    const map = contextMap(
      [{ ordinal: 0, path: 'messages[0]', area: 'messages', index: 0, label: '', detail: '', files: [], entryIds: [], tokens: 7, breakpoint: null }],
      [{ ordinal: 0, path: 'messages[0]', hash: '', bytes: 28, provenance: null, breakpoint: null }],
      null,
    )
    expect(map).toEqual([{ key: 'history:history', label: 'History · history', group: 'history', file: null, tokens: 7, firstOrdinal: 0 }])
  })
})

describe('offBy', () => {
  it("says how far the service's count is from the map's estimate, and nothing under a percent", () => {
    expect(offBy(2_302, 2_781)).toBe(' (+21%)')
    expect(offBy(2_000, 1_900)).toBe(' (−5%)')
    expect(offBy(2_000, 2_004)).toBe('')
  })
})
