/**
 * Golden test: one real session (spotter tool_heavy.jsonl, Claude Code 2.1.38) as the store holds it after import —
 * each pass's envelope (times, usage, cost, bytes and their hash, segments, attribution) and each entry — committed
 * in golden/tool_heavy.store.json. Regenerate after an intended change with
 * `UPDATE_GOLDEN=1 npx vitest run test/node/transcripts/store-golden.test.ts`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { Entry } from '../../../src-main/engine/conversation/entries'
import { importTranscript } from '../../../src-main/node/transcripts/store-import'
import { FIXTURES, tempStore, type TempStore } from './store-helpers'

const GOLDEN = fileURLToPath(new URL('./golden/tool_heavy.store.json', import.meta.url))
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
const clip = (text: string) => `${text.length}:${text.slice(0, 40)}`

function entryDigest(e: Entry): string {
  switch (e.kind) {
    case 'user_message':
      return `user ${e.content.map((b) => (b.type === 'text' ? clip(b.text) : 'image')).join(' | ')}`
    case 'assistant_message':
      return `assistant ${e.stopReason ?? '-'} ${e.content.map((b) => (b.type === 'tool_use' ? `tool_use ${b.name} ${b.id}` : b.type === 'text' ? `text ${clip(b.text)}` : b.type)).join(' | ')}`
    case 'tool_result':
      return `tool_result ${e.toolName} ${e.toolUseId}${e.isError ? ' error' : ''} ${clip(e.content)}`
    default:
      return e.kind
  }
}

let t: TempStore | null = null
afterEach(() => {
  t?.dispose()
  t = null
})

describe('golden store import of spotter/tool_heavy.jsonl', () => {
  it('matches the committed digest', async () => {
    t = tempStore()
    const result = await importTranscript(t.store, join(FIXTURES, 'spotter', 'tool_heavy.jsonl'), { now: Date.UTC(2026, 10, 29) })
    const passes = t.store.passes.list(result.sessionId)
    const passIndex = new Map(passes.map((p, i) => [p.id, i + 1]))
    const actual = {
      title: result.title,
      project: t.store.projects.get(result.projectId)!.name,
      passes: passes.map((p) => {
        const detail = t!.store.passes.get(p.id)!
        const body = JSON.parse(detail.requestBody) as { messages: unknown[] }
        const a = p.attribution as { outcome: string | null; cause: { kind: string }; summary: string }
        return {
          seq: p.seq,
          kind: p.kind,
          source: p.source,
          model: p.model,
          status: p.status,
          queuedAt: iso(p.queuedAt),
          firstByteAt: iso(p.firstByteAt),
          doneAt: iso(p.doneAt),
          requestBytes: p.requestBytes,
          requestSha256: p.requestSha256,
          messages: body.messages.length,
          segments: detail.segments.map((s) => `${s.path} ${(s.provenance as { historyKind?: string }).historyKind ?? '?'}`),
          usage: p.usage,
          costUsd: p.costUsd,
          attribution: { outcome: a.outcome, cause: a.cause.kind, summary: a.summary },
        }
      }),
      entries: t.store.entries.list(result.sessionId).map((e) => {
        const linked = e.kind === 'assistant_message' ? ` → pass ${passIndex.get(e.passId) ?? '?'}` : ''
        return `${iso(e.at)} ${entryDigest(e)}${linked}`
      }),
    }
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(GOLDEN)) {
      if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`missing ${GOLDEN}; run with UPDATE_GOLDEN=1 to write it`)
      writeFileSync(GOLDEN, JSON.stringify(actual, null, 2) + '\n')
    }
    expect(actual).toEqual(JSON.parse(readFileSync(GOLDEN, 'utf8')))
  })
})
