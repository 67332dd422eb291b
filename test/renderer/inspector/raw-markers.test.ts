import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { parseBody, prettyRequest } from '../../../src-renderer/features/inspector/model/pretty'
import { rawMarkerRanges } from '../../../src-renderer/features/inspector/model/raw-markers'
import { recordedPasses } from './fixture'

/** The value at a marker path (`messages[6].content[1]`, `system[0]`, `(request)`). */
function at(body: unknown, path: string): unknown {
  if (path === '(request)') return body
  let v = body
  for (const part of path.match(/[^.[\]]+/g)!) v = (v as Record<string, unknown>)[/^\d+$/.test(part) ? Number(part) : part]
  return v
}

describe('rawMarkerRanges', () => {
  it('finds every breakpoint of a recorded pass at its own cache_control member in the raw bytes, in text order', () => {
    for (const pass of recordedPasses()) {
      const body = parseBody(pass.requestBody)!
      const markers = prettyRequest(body).markers
      const ranges = rawMarkerRanges(pass.requestBody)
      expect([...ranges.keys()].sort()).toEqual(markers.map((m) => m.path).sort())
      for (const m of markers) {
        const r = ranges.get(m.path)!
        const member = JSON.parse(`{${pass.requestBody.slice(r.start, r.end)}}`) as Record<string, unknown>
        expect(member).toEqual({ cache_control: (at(body, m.path) as Record<string, unknown>).cache_control })
      }
    }
  })

  it('is not misled by the words "cache_control" inside a string, escapes or whitespace', () => {
    const body = {
      system: [{ type: 'text', text: 'say "cache_control": {"type":"ephemeral"} \\" ok' }, { type: 'text', text: 'b', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'é\u2028\n"x"', cache_control: { type: 'ephemeral' } }] }],
    }
    for (const text of [JSON.stringify(body), JSON.stringify(body, null, 2)]) {
      const ranges = rawMarkerRanges(text)
      expect([...ranges.keys()]).toEqual(['system[1]', 'messages[0].content[0]'])
      const s = ranges.get('system[1]')!
      expect(text.slice(s.start, s.end).replace(/\s/g, '')).toBe('"cache_control":{"type":"ephemeral","ttl":"1h"}')
    }
  })

  it('gives the paths the pretty printer gives, for any body', () => {
    const marked = fc.record({ text: fc.string(), cache_control: fc.constant({ type: 'ephemeral' }) })
    fc.assert(
      fc.property(fc.array(fc.oneof(marked, fc.jsonValue()), { maxLength: 4 }), fc.array(marked, { maxLength: 3 }), (messages, system) => {
        const text = JSON.stringify({ system, messages })
        const pretty = prettyRequest(parseBody(text)!)
        expect([...rawMarkerRanges(text).keys()].sort()).toEqual(pretty.markers.map((m) => m.path).sort())
      }),
    )
  })

  it('finds nothing in a body that is not JSON', () => {
    expect(rawMarkerRanges('{"cache_control": {')).toEqual(new Map())
  })
})
