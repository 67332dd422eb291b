/**
 * Golden test: the reconstructed passes of one real session (spotter tool_heavy.jsonl, 2.1.38), as a compact digest
 * committed in golden/tool_heavy.passes.json. Text is shown by length and its first characters, so the file stays
 * small and a change in folding, ordering or usage shows up as a readable diff.
 * Regenerate after an intended change with `UPDATE_GOLDEN=1 npx vitest run test/engine/transcripts/golden.test.ts`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { ContentBlock } from '../../../src-main/engine/model/wire'
import { reconstructPasses } from '../../../src-main/engine/transcripts/reconstruct'
import { importSessionText } from '../../../src-main/engine/transcripts/session'
import { readFixture } from './fixtures'

const GOLDEN = fileURLToPath(new URL('./golden/tool_heavy.passes.json', import.meta.url))

function clip(text: string): string {
  return `${text.length}:${text.slice(0, 40)}`
}

function digestBlock(b: ContentBlock): string {
  switch (b.type) {
    case 'text':
      return `text ${clip(b.text)}`
    case 'thinking':
      return `thinking ${b.thinking.length}`
    case 'redacted_thinking':
      return `redacted_thinking ${b.data.length}`
    case 'tool_use':
      return `tool_use ${b.id} ${b.name} ${JSON.stringify(b.input).length}`
    case 'tool_result':
      return `tool_result ${b.tool_use_id}${b.is_error === true ? ' error' : ''} ${typeof b.content === 'string' ? clip(b.content) : `${b.content.length} blocks`}`
    case 'image':
      return `image ${b.source.media_type} ${b.source.data.length}`
  }
}

function digest() {
  const session = importSessionText(readFixture('spotter', 'tool_heavy.jsonl').text)
  return reconstructPasses(session).map((p) => ({
    request: p.request.key,
    model: p.request.model,
    at: p.request.firstLineAtMs === null ? null : new Date(p.request.firstLineAtMs).toISOString(),
    usage: p.request.usage,
    start: p.start.kind,
    messages: p.messages.map((m) => `${m.role}: ${m.content.map(digestBlock).join(' | ')}`),
    response: p.request.response.map(digestBlock),
  }))
}

describe('golden reconstruction of spotter/tool_heavy.jsonl', () => {
  it('matches the committed digest', () => {
    const actual = digest()
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(GOLDEN)) {
      if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`missing ${GOLDEN}; run with UPDATE_GOLDEN=1 to write it`)
      writeFileSync(GOLDEN, JSON.stringify(actual, null, 2) + '\n')
    }
    expect(actual).toEqual(JSON.parse(readFileSync(GOLDEN, 'utf8')))
  })
})
