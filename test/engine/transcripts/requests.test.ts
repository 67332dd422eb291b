/** Deduplication of assistant lines into API requests. */
import { describe, expect, it } from 'vitest'
import { parseTranscript } from '../../../src-main/engine/transcripts/parser'
import { collectRequests } from '../../../src-main/engine/transcripts/requests'

const line = (uuid: string, requestId: string | undefined, output: number, extra: object = {}, model = 'claude-opus-4-6') =>
  JSON.stringify({
    type: 'assistant',
    uuid,
    parentUuid: null,
    ...(requestId === undefined ? {} : { requestId }),
    timestamp: `2026-01-01T00:00:0${uuid.length}.000Z`,
    message: {
      id: `msg_${requestId ?? uuid}`,
      model,
      role: 'assistant',
      content: [{ type: 'text', text: uuid }],
      stop_reason: null,
      usage: { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: output },
    },
    ...extra,
  })

describe('collectRequests', () => {
  it('merges the lines of one request, keeps the largest output count and the blocks in order', () => {
    const requests = collectRequests(parseTranscript([line('a', 'r1', 9), line('bb', 'r1', 212), line('ccc', 'r1', 40)].join('\n')).records)
    expect(requests).toHaveLength(1)
    const r = requests[0]!
    expect(r.usage).toEqual({ input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 212 })
    expect(r.response).toEqual([{ type: 'text', text: 'a' }, { type: 'text', text: 'bb' }, { type: 'text', text: 'ccc' }])
    expect(r.lineUuids).toEqual(['a', 'bb', 'ccc'])
    expect(r.firstLineAtMs).toBe(Date.parse('2026-01-01T00:00:01.000Z'))
    expect(r.lastLineAtMs).toBe(Date.parse('2026-01-01T00:00:03.000Z'))
  })

  it('falls back to message.id when requestId is missing, and keeps requests in order of first line', () => {
    const text = [line('a', 'r2', 1), line('b', undefined, 1), line('c', 'r1', 1), line('d', 'r2', 1)].join('\n')
    expect(collectRequests(parseTranscript(text).records).map((r) => r.key)).toEqual(['r2', 'msg_b', 'r1'])
  })

  it("leaves out Claude Code's synthetic notice lines", () => {
    const text = [line('a', 'r1', 1), line('b', undefined, 0, {}, '<synthetic>')].join('\n')
    expect(collectRequests(parseTranscript(text).records).map((r) => r.key)).toEqual(['r1'])
  })

  it('marks sidechain requests and their agent', () => {
    const text = line('a', 'r1', 1, { isSidechain: true, agentId: 'a12' })
    expect(collectRequests(parseTranscript(text).records)[0]).toMatchObject({ isSidechain: true, agentId: 'a12' })
  })
})
