import { describe, expect, it } from 'vitest'
import { describeBlocks } from '../../../src-renderer/features/inspector/model/blocks'
import { breakpointReport, noBreakpointText, OUTCOME_WORDS, readThrough, shortChipWords } from '../../../src-renderer/features/inspector/model/breakpoints'
import { parseBody, prettyRequest } from '../../../src-renderer/features/inspector/model/pretty'
import { comparePaths, readAttribution } from '../../../src-renderer/features/inspector/model/attribution'
import { recordedPasses } from './fixture'

function reportOf(index: number, usageOverride?: Parameters<typeof breakpointReport>[2]) {
  const pass = recordedPasses()[index]!
  const blocks = describeBlocks(pass.segments, pass.plan)
  const pretty = prettyRequest(parseBody(pass.requestBody)!)
  return breakpointReport(blocks, pretty.markers, usageOverride === undefined ? pass.usage : usageOverride)
}

describe('breakpointReport', () => {
  it('names the breakpoints BP1..BP4 with their TTL, in cache order', () => {
    expect(reportOf(3).marks.map((m) => m.label)).toEqual(['BP1 static · 5m', 'BP2 session · 5m', 'BP3 previous tail · 5m', 'BP4 tail · 5m'])
  })

  it('a first pass wrote everything up to its last breakpoint', () => {
    const report = reportOf(0)
    expect(report.marks.map((m) => m.outcome)).toEqual(['written', 'written', 'written'])
    expect(report.cachedThroughOrdinal).toBe(-1)
  })

  it('a steady pass read up to the previous tail and wrote the new tail', () => {
    const report = reportOf(3)
    expect(report.marks.map((m) => m.outcome)).toEqual(['read', 'read', 'read', 'written'])
    expect(report.cachedThroughOrdinal).toBe(report.marks[2]!.ordinal)
  })

  it('says missed when nothing was read or written, and unknown without usage', () => {
    const none = reportOf(3, { input_tokens: 2600, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 })
    expect(none.marks.every((m) => m.outcome === 'missed')).toBe(true)
    expect(reportOf(3, null).marks.every((m) => m.outcome === 'unknown')).toBe(true)
  })

  it('a read that stopped at the static block marks only BP1 read', () => {
    const pass = recordedPasses()[3]!
    const blocks = describeBlocks(pass.segments, pass.plan)
    const upToStatic = blocks.filter((b) => b.ordinal <= blocks.find((x) => x.breakpoint === 'static')!.ordinal).reduce((s, b) => s + b.tokens, 0)
    const total = blocks.reduce((s, b) => s + b.tokens, 0)
    const report = reportOf(3, { input_tokens: 3, output_tokens: 5, cache_read_input_tokens: upToStatic, cache_creation_input_tokens: total - upToStatic - 3 })
    expect(report.marks.map((m) => m.outcome)).toEqual(['read', 'written', 'written', 'written'])
  })

  it('places a top-level cache_control on the last block', () => {
    const blocks = [
      { ordinal: 0, path: 'messages[0]', tokens: 10, breakpoint: null },
      { ordinal: 1, path: 'messages[1]', tokens: 10, breakpoint: null },
    ]
    const report = breakpointReport(blocks, [{ blockPath: null, path: '(request)', ttl: '5m' as const }], { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 20, cache_creation_input_tokens: 0 })
    expect(report.marks).toMatchObject([{ ordinal: 1, outcome: 'read', label: 'BP (untagged) · 5m' }])
  })
})

describe('breakpointReport with an attribution', () => {
  it('takes where the read ended and what each breakpoint did from the attribution', () => {
    const pass = recordedPasses()[3]!
    const blocks = describeBlocks(pass.segments, pass.plan)
    const markers = prettyRequest(parseBody(pass.requestBody)!).markers
    const attribution = readAttribution({
      outcome: 'partial',
      cause: { kind: 'changed_block', label: 'system[1] · instructions changed' },
      prediction: { breakpoints: [{ path: 'system[0]', action: 'read' }, { path: 'system[1]', action: 'write' }, { path: 'messages[4].content[0]', action: 'write' }, { path: 'messages[6].content[1]', action: 'below_minimum' }], tokens: { write5m: 10, write1h: 0 } },
      actual: { readPath: 'system[0]', tokens: { write5m: 300, write1h: 0 } },
    })
    // The usage says the read went to messages[4]; the attribution (which knows better) says system[0].
    const report = breakpointReport(blocks, markers, pass.usage, attribution)
    // The last breakpoint's prefix is under the model's minimum: too short to cache, not a miss.
    expect(report.marks.map((m) => m.outcome)).toEqual(['read', 'written', 'written', 'too_short'])
    expect(report.cachedThroughOrdinal).toBe(blocks.find((b) => b.path === 'system[0]')!.ordinal)
  })

  it('a prompt under the minimum everywhere is too short to cache at every breakpoint, not missed', () => {
    const pass = recordedPasses()[3]!
    const blocks = describeBlocks(pass.segments, pass.plan)
    const markers = prettyRequest(parseBody(pass.requestBody)!).markers
    const paths = ['system[0]', 'system[1]', 'messages[4].content[0]', 'messages[6].content[1]']
    const attribution = readAttribution({
      outcome: 'miss',
      cause: { kind: 'below_minimum', label: "prefix below the minimum: the 2,514 tokens before the new tail are under claude-opus-4-6's minimum of 4,096" },
      prediction: { breakpoints: paths.map((path) => ({ path, action: 'below_minimum' })), tokens: { write5m: 0, write1h: 0 } },
      actual: { readPath: null, tokens: { read: 0, write5m: 0, write1h: 0 } },
      miss: { tokens: 0 },
    })
    const report = breakpointReport(blocks, markers, { input_tokens: 2600, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, attribution)
    expect(report.marks.map((m) => m.outcome)).toEqual(['too_short', 'too_short', 'too_short', 'too_short'])
    expect(report.marks.map((m) => `${m.label} · ${OUTCOME_WORDS[m.outcome]}`)).toEqual([
      'BP1 static · 5m · too short to cache',
      'BP2 session · 5m · too short to cache',
      'BP3 previous tail · 5m · too short to cache',
      'BP4 tail · 5m · too short to cache',
    ])
  })

  it('a breakpoint neither read nor written is "nothing to read" when the pass lost nothing, and missed when it lost something', () => {
    const pass = recordedPasses()[3]!
    const blocks = describeBlocks(pass.segments, pass.plan)
    const markers = prettyRequest(parseBody(pass.requestBody)!).markers
    const attributed = (lost: number) =>
      readAttribution({
        outcome: 'partial',
        cause: { kind: 'unexplained', label: 'unexplained' },
        prediction: { breakpoints: [{ path: 'system[0]', action: 'read' }, { path: 'system[1]', action: 'write' }, { path: 'messages[4].content[0]', action: 'write' }, { path: 'messages[6].content[1]', action: 'write' }], tokens: { write5m: 10, write1h: 0 } },
        actual: { readPath: 'system[0]', tokens: { read: 2400, write5m: 0, write1h: 0 } },
        miss: { tokens: lost },
      })
    expect(breakpointReport(blocks, markers, pass.usage, attributed(0)).marks.map((m) => m.outcome)).toEqual(['read', 'nothing_to_read', 'nothing_to_read', 'nothing_to_read'])
    expect(breakpointReport(blocks, markers, pass.usage, attributed(1200)).marks.map((m) => m.outcome)).toEqual(['read', 'missed', 'missed', 'missed'])
  })

  it("counts each breakpoint's prefix as the attribution did, and the billed read and write where they end", () => {
    const pass = recordedPasses()[3]!
    const blocks = describeBlocks(pass.segments, pass.plan)
    const markers = prettyRequest(parseBody(pass.requestBody)!).markers
    const attribution = readAttribution({
      outcome: 'full',
      cause: { kind: 'none', label: 'full hit' },
      prediction: {
        breakpoints: [
          { path: 'system[0]', action: 'read', tokens: 2437 },
          { path: 'system[1]', action: 'read', tokens: 2900 },
          { path: 'messages[4].content[0]', action: 'read', tokens: 3470 },
          { path: 'messages[6].content[1]', action: 'write', tokens: 9520 },
        ],
        tokens: { write5m: 6040, write1h: 0 },
      },
      actual: { readPath: 'messages[4].content[0]', tokens: { read: 3485, write5m: 6052, write1h: 0 } },
    })
    const report = breakpointReport(blocks, markers, pass.usage, attribution)
    expect(report.marks.map((m) => m.outcome)).toEqual(['read', 'read', 'read', 'written'])
    // The read ended at BP3: its figure is the read billed, as the usage line beside it says; BP4 adds the write.
    expect(report.marks.map((m) => m.prefixTokens)).toEqual([2437, 2900, 3485, 3485 + 6052])
  })

  it('a request that got no response did nothing at its breakpoints, whatever the prediction said', () => {
    const pass = recordedPasses()[3]!
    const blocks = describeBlocks(pass.segments, pass.plan)
    const markers = prettyRequest(parseBody(pass.requestBody)!).markers
    const attribution = readAttribution({
      outcome: 'miss',
      readPath: null,
      cause: { kind: 'no_response', label: 'no response: the model service refused the request or could not be reached, so it read and wrote nothing' },
      prediction: { readPath: 'messages[4].content[0]', breakpoints: [{ path: 'system[0]', action: 'read' }, { path: 'messages[6].content[1]', action: 'write' }], tokens: { write5m: 10, write1h: 0 } },
      actual: null,
    })
    expect(attribution).toMatchObject({ noResponse: true, readPath: null, wrote: false })
    const report = breakpointReport(blocks, markers, null, attribution)
    expect(report.marks.map((m) => m.outcome)).toEqual(['no_response', 'no_response', 'no_response', 'no_response'])
    expect(report.cachedThroughOrdinal).toBe(-1)
  })

  it('orders block paths in cache order', () => {
    expect(['messages[1].content[0]', 'system[1]', 'tools[2]', 'messages[0].content[3]', 'messages[1]'].sort(comparePaths)).toEqual([
      'tools[2]',
      'system[1]',
      'messages[0].content[3]',
      'messages[1].content[0]',
      'messages[1]',
    ])
  })
})

describe('the line beside the breakpoint chips', () => {
  it('names the last breakpoint read, or where the attribution found the read, and never says nothing was read beside a read', () => {
    expect(readThrough('system[1]', 'system[1]', 2_000)).toBe('from cache through system[1]')
    // A retry after a pass that got no response reads past its last breakpoint read, by lookback.
    expect(readThrough('system[1]', 'messages[3].content[0]', 2_000)).toBe('from cache through messages[3].content[0]')
    // A pre-warm reads by lookback before its only (tail) breakpoint, which it writes.
    expect(readThrough(null, 'messages[12].content[0]', 6_925)).toBe('from cache through messages[12].content[0]')
    expect(readThrough(null, null, 6_925)).toBe('read from cache')
    expect(readThrough(null, null, 0)).toBe('nothing read from cache')
  })

  it('says why a request has no breakpoint', () => {
    expect(noBreakpointText('transcript', 76_200)).toMatch(/transcript does not record/)
    expect(noBreakpointText('loupe', 0)).toMatch(/nothing can be read/)
    expect(noBreakpointText('proxy', 1_000)).toMatch(/read an entry an earlier request wrote/)
  })
})

describe("a breakpoint chip's short words", () => {
  it('says what the API did in one short word, so four chips fit one line of a narrow inspector', () => {
    expect(shortChipWords({ shortLabel: 'BP1', outcome: 'read' })).toBe('BP1 read')
    expect(shortChipWords({ shortLabel: 'BP4', outcome: 'written' })).toBe('BP4 write')
    expect(shortChipWords({ shortLabel: 'BP2', outcome: 'missed' })).toBe('BP2 miss')
    expect(shortChipWords({ shortLabel: 'BP3', outcome: 'no_response' })).toBe('BP3 none')
    expect(shortChipWords({ shortLabel: 'BP1', outcome: 'too_short' })).toBe('BP1 short')
    expect(shortChipWords({ shortLabel: 'BP4', outcome: 'nothing_to_read' })).toBe('BP4 empty')
  })
})
