import { describe, expect, it } from 'vitest'
import { describeBlocks } from '../../../src-renderer/features/inspector/model/blocks'
import { recordedPasses } from './fixture'

describe('describeBlocks', () => {
  const pass = recordedPasses()[3]!
  const blocks = describeBlocks(pass.segments, pass.plan)
  const byPath = new Map(blocks.map((b) => [b.path, b]))

  it('labels every block with where it came from, in cache order', () => {
    expect(blocks.map((b) => b.ordinal)).toEqual(pass.segments.map((_, i) => i))
    expect(byPath.get('tools[0]')!.label).toBe('tool · bash')
    expect(byPath.get('system[0]')!.label).toBe('system · static')
    expect(byPath.get('system[1]')!.label).toBe('system · session')
    expect(byPath.get('messages[0]')!.label).toBe('user input + session context')
    expect(byPath.get('messages[1]')!.label).toBe('assistant')
    expect(byPath.get('messages[6]')!.label).toBe('tool results + nested instructions: src/CLAUDE.md')
  })

  it('names the files behind a block and the entries behind a message', () => {
    expect(byPath.get('system[1]')!.files).toEqual(['CLAUDE.md', '.loupe/memory.md'])
    expect(byPath.get('messages[6]')!.files).toEqual(['src/CLAUDE.md'])
    expect(byPath.get('messages[1]')!.entryIds).toHaveLength(1)
    expect(byPath.get('messages[1]')!.detail).toContain(byPath.get('messages[1]')!.entryIds[0])
  })

  it('takes token counts from provenance, and shares the plan tool total out over the tools', () => {
    expect(byPath.get('system[0]')!.tokens).toBe(384)
    const toolTotal = blocks.filter((b) => b.area === 'tools').reduce((s, b) => s + b.tokens, 0)
    const planTools = (pass.plan as { tokens: { tools: number } }).tokens.tools
    expect(Math.abs(toolTotal - planTools)).toBeLessThanOrEqual(5)
    expect(byPath.get('tools[0]')!.tokens).toBeGreaterThan(byPath.get('tools[7]')!.tokens)
  })

  it('carries the breakpoint tags', () => {
    expect(blocks.filter((b) => b.breakpoint).map((b) => [b.path, b.breakpoint])).toEqual([
      ['system[0]', 'static'],
      ['system[1]', 'session'],
      ['messages[4]', 'previous_tail'],
      ['messages[6]', 'newest_tail'],
    ])
  })

  it('falls back to a size estimate and a plain label when provenance is missing', () => {
    const [b] = describeBlocks([{ ordinal: 0, path: 'messages[0]', hash: 'h', bytes: 400, provenance: null, breakpoint: 'weird' }], null)
    expect(b).toMatchObject({ label: 'messages · provenance unknown', tokens: 100, breakpoint: null, area: 'messages', index: 0 })
    const [whole] = describeBlocks([{ ordinal: 0, path: 'body', hash: 'h', bytes: 8, provenance: { kind: 'body' }, breakpoint: null }], null)
    expect(whole).toMatchObject({ label: 'whole body', area: 'body', tokens: 2 })
  })
})
