import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { parseBody, prettyRequest } from '../../../src-renderer/features/inspector/model/pretty'
import { recordedPasses } from './fixture'

describe('prettyRequest', () => {
  it('prints exactly what JSON.stringify(body, null, 2) prints, in wire order', () => {
    for (const pass of recordedPasses()) {
      const body = parseBody(pass.requestBody)!
      expect(prettyRequest(body).text).toBe(JSON.stringify(body, null, 2))
    }
  })

  it('matches JSON.stringify for any JSON value inside the areas', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue(), { maxLength: 4 }), (extra, messages) => {
        const body = { ...extra, messages }
        const parsed = JSON.parse(JSON.stringify(body)) as Record<string, unknown>
        expect(prettyRequest(parsed).text).toBe(JSON.stringify(parsed, null, 2))
      }),
    )
  })

  it('gives each block the lines its JSON occupies', () => {
    const pass = recordedPasses()[3]!
    const body = parseBody(pass.requestBody)!
    const pretty = prettyRequest(body)
    const lines = pretty.text.split('\n')
    expect(pretty.lineCount).toBe(lines.length)
    expect(pretty.blocks.map((b) => b.path)).toEqual(pass.segments.map((s) => s.path))
    for (const block of pretty.blocks) {
      const text = lines.slice(block.startLine - 1, block.endLine).join('\n').replace(/,$/, '')
      const item = (body[block.area] as unknown[])[block.index]
      expect(JSON.parse(text)).toEqual(item)
    }
  })

  it('puts a marker on the closing line of every object carrying cache_control, inside its block', () => {
    const pass = recordedPasses()[3]!
    const pretty = prettyRequest(parseBody(pass.requestBody)!)
    const lines = pretty.text.split('\n')
    // Independent check: the text's own cache_control keys.
    const keyLines = lines.flatMap((l, i) => (/^\s*"cache_control": \{/.test(l) ? [i + 1] : []))
    expect(pretty.markers).toHaveLength(keyLines.length)
    expect(pretty.markers.map((m) => m.blockPath)).toEqual(['system[0]', 'system[1]', 'messages[4]', 'messages[6]'])
    for (const m of pretty.markers) {
      const block = pretty.blocks.find((b) => b.path === m.blockPath)!
      expect(m.endLine).toBeGreaterThanOrEqual(block.startLine)
      expect(m.endLine).toBeLessThanOrEqual(block.endLine)
      expect(lines[m.endLine - 1]!.trim()).toMatch(/^\},?$/)
    }
    expect(pretty.markers.find((m) => m.blockPath === 'messages[6]')!.path).toBe('messages[6].content[1]')
  })

  it('reads a 1h TTL from the marker', () => {
    const body = { system: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral', ttl: '1h' } }], messages: [] }
    expect(prettyRequest(body).markers).toEqual([{ blockPath: 'system[0]', path: 'system[0]', endLine: 10, ttl: '1h' }])
  })

  it('in cache order, puts tools before system and messages last, after the other fields', () => {
    const body = parseBody(recordedPasses()[0]!.requestBody)!
    const pretty = prettyRequest(body, 'cache')
    const keys = Object.keys(JSON.parse(pretty.text) as object)
    expect(keys.slice(-3)).toEqual(['tools', 'system', 'messages'])
    expect(keys[0]).toBe('model')
    const [tools, system] = [pretty.blocks.find((b) => b.path === 'tools[0]')!, pretty.blocks.find((b) => b.path === 'system[0]')!]
    expect(tools.startLine).toBeLessThan(system.startLine)
  })

  it('refuses a body that is not a JSON object', () => {
    expect(parseBody('not json')).toBeNull()
    expect(parseBody('[1,2]')).toBeNull()
  })
})
