import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeBlocks } from '../../../src-renderer/features/inspector/model/blocks'
import { causeSliceKeys, contextMap, legendOrder, offBy, type ContextSlice } from '../../../src-renderer/features/inspector/model/context-map'
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

  it("gives an instruction file its own estimate, and the sections' own text the rest of the session block", () => {
    const system1 = blocks.find((b) => b.path === 'system[1]')!
    // Spans (provenance): instructions 0..209 holding CLAUDE.md 156..209, memory 211..436 holding
    // .loupe/memory.md 368..436. The files: ceil(53 / 4) and ceil(68 / 4); the sections' own text, 156 and 157
    // characters, shares the rest.
    expect(byKey.get('file:CLAUDE.md')!.tokens).toBe(14)
    const rest = system1.tokens - 14 - 17
    expect(byKey.get('instructions')!.tokens).toBe(Math.round((156 * rest) / 313))
    expect(byKey.get('memory')!.tokens).toBe(17 + Math.round((157 * rest) / 313))
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

  it("keeps a file's slice while another file's size changes the block's", () => {
    // system[1] with CLAUDE.md (420 characters) and AGENTS.md growing a character at a time: the block's estimate,
    // and its round-up, move with AGENTS.md alone.
    const mapWith = (agentsChars: number) => {
      const header = 150
      const claude = { start: header + 2, end: header + 2 + 420 }
      const agents = { start: claude.end + 2, end: claude.end + 2 + agentsChars }
      const memory = { start: agents.end + 2, end: agents.end + 2 + 180 }
      const spans = [
        { section: 'instructions', start: 0, end: agents.end },
        { section: 'instructions', file: 'CLAUDE.md', ...claude },
        { section: 'instructions', file: 'AGENTS.md', ...agents },
        { section: 'memory', ...memory },
      ]
      const tokens = Math.ceil(memory.end / 4)
      const map = contextMap(
        [{ ordinal: 1, path: 'system[1]', area: 'system', index: 1, label: '', detail: '', files: [], entryIds: [], tokens, breakpoint: null }],
        [{ ordinal: 1, path: 'system[1]', hash: '', bytes: memory.end, provenance: { kind: 'system', block: 'session', spans }, breakpoint: null }],
        null,
      )
      expect(Math.abs(map.reduce((sum, x) => sum + x.tokens, 0) - tokens)).toBeLessThanOrEqual(1)
      return map.find((x) => x.key === 'file:CLAUDE.md')!.tokens
    }
    expect(new Set(Array.from({ length: 8 }, (_, i) => mapWith(20 + i)))).toEqual(new Set([105]))
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

describe('history kinds', () => {
  it('gives each kind of history its own swatch', () => {
    const pass = recordedPasses()[3]!
    const slices = contextMap(describeBlocks(pass.segments, pass.plan), pass.segments, parseBody(pass.requestBody))
    const groups = slices.filter((s) => s.key.startsWith('history:')).map((s) => s.group)
    expect(groups).toEqual(['history-user', 'history-assistant', 'history-tool-results'])
  })
})

describe('the swatches (inspector.css)', () => {
  const css = readFileSync(join(__dirname, '../../../src-renderer/features/inspector/inspector.css'), 'utf8')
  const theme = readFileSync(join(__dirname, '../../../src-renderer/ui/theme.css'), 'utf8')
  const swatches = new Map([...css.matchAll(/^\.g-([\w-]+) \{ background: ([^;]+); \}/gm)].map((m) => [m[1]!, m[2]!]))
  const themeVar = (attr: string, name: string) => new RegExp(`:root\\[data-theme='${attr}'\\] \\{[^}]*--${name}: (#[0-9a-f]{6})`).exec(theme)![1]!
  const channels = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number]
  const luminance = (hex: string) => {
    const [r, g, b] = channels(hex)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }
  const contrast = (a: string, b: string) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
    return (hi + 0.05) / (lo + 0.05)
  }
  // CIE76 distance in L*a*b*: about 2 is just noticeable; 12 reads as another colour in a 9 px swatch.
  const lab = (hex: string) => {
    const [r, g, b] = channels(hex)
    const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116)
    const [x, y, z] = [(0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883].map(f) as [number, number, number]
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)]
  }
  const distance = (a: string, b: string) => Math.hypot(...lab(a).map((v, i) => v - lab(b)[i]!))

  it('has a swatch for every group a slice can have', () => {
    const groups = ['tools', 'static', 'instructions', 'memory', 'skills', 'session', 'history-assistant', 'history-tool-results', 'history-user', 'history-summary', 'history', 'newest', 'notes', 'other']
    expect([...swatches.keys()].sort()).toEqual(groups.sort())
  })

  for (const mode of ['light', 'dark']) {
    it(`in the ${mode} theme, stands 3:1 against the panel and apart from every other swatch`, () => {
      const panel = themeVar(mode, 'panel')
      const colours = [...swatches].map(([group, value]) => [group, value === 'var(--accent)' ? themeVar(mode, 'accent') : value] as const)
      for (const [group, colour] of colours) expect(contrast(colour, panel), `${group} ${colour} on ${panel}`).toBeGreaterThanOrEqual(3)
      for (const [i, [a, x]] of colours.entries())
        for (const [b, y] of colours.slice(i + 1)) expect(distance(x, y), `${a} ${x} against ${b} ${y}`).toBeGreaterThanOrEqual(12)
    })
  }
})

describe('the legend names the cause first', () => {
  const slice = (key: string, tokens: number): ContextSlice => ({ key, label: key, group: 'other', tokens, firstOrdinal: 0, file: null })
  const slices = [slice('tools', 1646), slice('static', 428), slice('file:CLAUDE.md', 95), slice('history:assistant', 1240), slice('newest', 3)]

  it('puts the instruction file an applied edit changed first, then the largest', () => {
    const attribution = {
      outcome: 'partial',
      cause: {
        kind: 'changed_block',
        path: 'system[1]',
        what: { kind: 'system', block: 'session', sections: [{ section: 'project_instructions', part: null }], origin: { kind: 'apply_now', entryId: 'e1', paths: ['CLAUDE.md'] }, originAt: 1 },
        label: 'system[1] · project instructions · CLAUDE.md edited at 11:32, applied now by the user',
      },
    }
    const keys = causeSliceKeys(attribution)
    expect([...keys]).toEqual(['file:CLAUDE.md'])
    expect(legendOrder(slices, keys).map((s) => s.key)).toEqual(['file:CLAUDE.md', 'tools', 'history:assistant', 'static', 'newest'])
  })

  it('names the tools, a kind of history, or a section without files; and nothing for a cause without a source', () => {
    const changed = (what: Record<string, unknown>) => causeSliceKeys({ cause: { kind: 'changed_block', path: 'x', what, label: '' } })
    expect([...changed({ kind: 'tools', added: ['grep'], removed: [], changed: [] })]).toEqual(['tools'])
    expect([...changed({ kind: 'message', historyKind: 'compaction_summary', entryIds: [], editedBy: null })]).toEqual(['history:compaction_summary'])
    expect([...changed({ kind: 'system', block: 'static', sections: [{ section: 'base_rules', part: null }], origin: null, originAt: null })]).toEqual(['static'])
    expect([...changed({ kind: 'system', block: 'session', sections: [{ section: 'project_instructions', part: 'src/CLAUDE.md' }], origin: null, originAt: null })]).toEqual(['file:src/CLAUDE.md'])
    // A memory file is in the memory slice, not a slice of its own path: an edit to it applied now names that slice.
    const memoryApplied = { kind: 'apply_now', entryId: 'e1', paths: ['.loupe/memory.md'] }
    expect([...changed({ kind: 'system', block: 'session', sections: [{ section: 'memory', part: '.loupe/memory.md' }], origin: memoryApplied, originAt: 1 })]).toContain('memory')
    expect([...changed({ kind: 'system', block: 'session', sections: [{ section: 'memory', part: null }, { section: 'project_instructions', part: 'CLAUDE.md' }], origin: null, originAt: null })]).toEqual(['memory', 'file:CLAUDE.md'])
    expect([...causeSliceKeys({ cause: { kind: 'ttl_expired', idleMs: 1, ttlMs: 1, label: '' } })]).toEqual([])
    expect([...causeSliceKeys(null)]).toEqual([])
    expect(legendOrder(slices, new Set()).map((s) => s.key)).toEqual(['tools', 'history:assistant', 'static', 'file:CLAUDE.md', 'newest'])
  })
})
