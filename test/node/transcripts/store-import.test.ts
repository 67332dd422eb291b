/**
 * Every copied real transcript imported into a real temporary store: its passes add up to an independent count of
 * the file (and each subagent file), every pass is marked as reconstructed, compactions are checkpoint entries with
 * Claude Code's pre-token figure and the summary, subagents are child sessions, and the model's view of the imported
 * session is exactly what the transcript's last request carried plus its answer.
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toHistory } from '../../../src-main/engine/conversation/history'
import { isBlankText, type WireMessage } from '../../../src-main/engine/model/wire'
import { reconstructPasses } from '../../../src-main/engine/transcripts/reconstruct'
import type { PassSummary } from '../../../src-main/node/store/passes'
import { loadSession } from '../../../src-main/node/transcripts/load'
import { childSessions, sessionOrigin } from '../../../src-main/node/transcripts/origins'
import { importTranscript, type StoreImportResult } from '../../../src-main/node/transcripts/store-import'
import { importedTotals } from '../../../src-main/node/transcripts/store-totals'
import { transcriptCacheSummary } from '../../../src-main/node/cache/transcript-summary'
// The Cache view's own rule for what it lists as a miss: the reference the Claude Code dialog agrees with.
import { isFlaggedMiss } from '../../../src-renderer/features/cache/model/timeline'
import { add, compactBoundaries, fixtureFiles, independentCount, tempStore, type Count, type TempStore } from './store-helpers'

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0)
const files = fixtureFiles()

function countOf(passes: ReadonlyArray<PassSummary>): Count {
  const c: Count = { requests: 0, input: 0, read: 0, write: 0, output: 0 }
  for (const p of passes) {
    c.requests++
    c.input += p.usage?.input_tokens ?? 0
    c.read += p.usage?.cache_read_input_tokens ?? 0
    c.write += p.usage?.cache_creation_input_tokens ?? 0
    c.output += p.usage?.output_tokens ?? 0
  }
  return c
}

/** Tool results as entries keep text (an image is named): compare the model's view in those terms. */
function comparable(messages: ReadonlyArray<WireMessage>): unknown {
  return messages.map((m) => ({
    role: m.role,
    // A blank text block ("\n\n" before a tool call) is kept in the entries and left out of the model view: the API
    // refuses it sent back.
    content: m.content.filter((b) => !(b.type === 'text' && isBlankText(b.text))).map((b) => {
      if (b.type !== 'tool_result') return b
      const content = typeof b.content === 'string' ? b.content : b.content.map((x) => (x.type === 'text' ? x.text : `[image: ${x.source.media_type}]`)).join('\n')
      return { type: 'tool_result', tool_use_id: b.tool_use_id, content, ...(b.is_error === true ? { is_error: true } : {}) }
    }),
  }))
}

/** The file's last user or assistant line of the main conversation, read from the raw JSON: its role, and its texts and tool-result ids. */
function lastConversationLine(path: string): { role: string; marks: string[] } {
  let found: { role: string; marks: string[] } = { role: '', marks: [] }
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue
    let line: { type?: string; isSidechain?: boolean; message?: { content?: unknown } }
    try {
      line = JSON.parse(text)
    } catch {
      continue
    }
    if ((line.type !== 'user' && line.type !== 'assistant') || line.isSidechain) continue
    const content = Array.isArray(line.message?.content) ? (line.message.content as Array<{ type?: string; text?: string; tool_use_id?: string }>) : []
    const marks = content.flatMap((b) => (b.type === 'tool_result' && b.tool_use_id ? [b.tool_use_id] : b.type === 'text' && b.text ? [JSON.stringify(b.text).slice(1, 40)] : []))
    found = { role: line.type, marks }
  }
  return found
}

/** How many messages each fixture's view holds after its last request's conversation and answer. */
const afterLast = new Map<string, number>()

describe('importing every copied fixture into the store', () => {
  let t: TempStore
  const results = new Map<string, StoreImportResult>()
  beforeAll(async () => {
    t = tempStore()
    for (const f of files) results.set(f.name, await importTranscript(t.store, f.path, { now: NOW }))
  }, 300_000)
  afterAll(() => t.dispose())

  it('finds the nine fixtures', () => {
    expect(files).toHaveLength(9)
  })

  for (const f of files) {
    describe(f.name, () => {
      it('stores as many passes, with the same usage, as an independent dedupe of the file', () => {
        const r = results.get(f.name)!
        expect(r.status).toBe('imported')
        const inline = childSessions(t.store, r.sessionId).filter((c) => c.ref?.kind === 'claude-code' && c.ref.threadKind === 'sidechain')
        const stored = [...t.store.passes.list(r.sessionId), ...inline.flatMap((c) => t.store.passes.list(c.sessionId))]
        const expected = independentCount(f.path)
        expect(expected.requests).toBeGreaterThan(0)
        expect(countOf(stored)).toEqual(expected)
      })

      it('stores each subagent file as a child session counted like that file', () => {
        const r = results.get(f.name)!
        for (const sub of f.subagentPaths) {
          const child = r.children.find((c) => c.fileName === basename(sub))
          expect(child, basename(sub)).toBeDefined()
          expect(sessionOrigin(t.store, child!.sessionId)?.parentSessionId).toBe(r.sessionId)
          // Listed under its parent, and named by what the parent asked of it when the call that started it is known.
          const listed = t.store.sessions.get(child!.sessionId)!
          expect(listed.parentSessionId).toBe(r.sessionId)
          if (child!.kind === 'task' && sessionOrigin(t.store, child!.sessionId)?.ref?.kind === 'claude-code') {
            const ref = sessionOrigin(t.store, child!.sessionId)!.ref as { parentToolUseId: string | null }
            if (ref.parentToolUseId !== null) expect(listed.title).toMatch(/^↳ subagent: \S/)
          }
          expect(countOf(t.store.passes.list(child!.sessionId))).toEqual(independentCount(sub))
        }
        const totals = importedTotals(t.store, r.sessionId)!
        const all = f.subagentPaths.reduce((c, p) => add(c, independentCount(p)), independentCount(f.path))
        expect({ requests: totals.includingChildren.passes, input: totals.includingChildren.uncached, read: totals.includingChildren.read, write: totals.includingChildren.write, output: totals.includingChildren.output }).toEqual(all)
      })

      it('counts the misses the Cache view lists, by cause', () => {
        const r = results.get(f.name)!
        const passes = t.store.passes.list(r.sessionId)
        const listed = transcriptCacheSummary(r.sessionId, passes).passes.filter(isFlaggedMiss)
        const totals = importedTotals(t.store, r.sessionId)!
        expect(Object.values(totals.misses).reduce((a, b) => a + b, 0)).toBe(listed.length)
        // 4d5611e5 (docs/claude-code-import.md): two pauses and a change the transcript does not record; its
        // compaction's first request is not a miss.
        if (f.name.startsWith('4d5611e5')) expect(totals.misses).toEqual({ idle_gap: 2, not_visible: 1 })
      })

      it('marks every pass as reconstructed from a transcript, its body the JSON of {model, messages}', () => {
        const r = results.get(f.name)!
        const passes = t.store.passes.list(r.sessionId)
        for (const p of passes) expect(p.source).toBe('transcript')
        const detail = t.store.passes.get(passes.at(-1)!.id)!
        const body = JSON.parse(detail.requestBody) as Record<string, unknown>
        expect(Object.keys(body)).toEqual(['model', 'messages'])
        expect(body.model).toBe(detail.model)
        expect((detail.attribution as { source: string }).source).toBe('transcript')
        expect(JSON.parse(detail.responseRaw!)).toMatchObject({ type: 'message', role: 'assistant', model: detail.model })
      })

      it('writes each compaction as a checkpoint entry with its pre-tokens and summary', () => {
        const r = results.get(f.name)!
        const boundaries = compactBoundaries(f.path)
        const checkpoints = t.store.entries.list(r.sessionId).filter((e) => e.kind === 'checkpoint')
        expect(checkpoints.map((c) => (c.kind === 'checkpoint' ? c.tokens.before.real : null))).toEqual(boundaries.map((b) => b.preTokens))
        for (const c of checkpoints) {
          if (c.kind !== 'checkpoint') continue
          expect(c.summary?.length ?? 0).toBeGreaterThan(100)
          expect(c.view.head?.length ?? 0).toBeGreaterThan(0)
          // The compaction call's own file (2.x agent-acompact-*) is linked from the checkpoint.
          const call = r.children.find((ch) => ch.kind === 'compaction')
          if (call) expect(c.summaryPassIds).toEqual(t.store.passes.list(call.sessionId).map((p) => p.id))
          // The first pass sent after it (by time, as the views find it) is the first with the smaller context.
          const main = t.store.passes.list(r.sessionId).filter((p) => p.kind === 'main')
          const after = main.find((p) => p.queuedAt >= c.at)
          const before = [...main].reverse().find((p) => p.queuedAt < c.at)
          const size = (p: PassSummary | undefined) => (p?.usage ? p.usage.input_tokens + (p.usage.cache_read_input_tokens ?? 0) + (p.usage.cache_creation_input_tokens ?? 0) : null)
          if (after && before && size(after) !== null && size(before) !== null) expect(size(after)!).toBeLessThan(size(before)!)
        }
      })

      it("gives a model view of the last request's conversation and its answer, then what the file wrote after it", async () => {
        const r = results.get(f.name)!
        const loaded = await loadSession(f.path)
        if (!loaded.ok) throw new Error(loaded.error.message)
        const last = reconstructPasses(loaded.session).at(-1)!
        const expected: WireMessage[] = [...last.messages, ...(last.request.response.length > 0 ? [{ role: 'assistant' as const, content: last.request.response }] : [])]
        const view = toHistory(t.store.entries.list(r.sessionId)).map((h) => h.message)
        expect(comparable(view.slice(0, expected.length))).toEqual(comparable(expected))
        // Whatever follows is the file's own last lines: the view ends with the last conversation line it holds.
        const tail = view.slice(expected.length)
        const ending = lastConversationLine(f.path)
        if (tail.length > 0) {
          expect(tail.at(-1)!.role).toBe(ending.role)
          for (const mark of ending.marks) expect(JSON.stringify(tail.at(-1))).toContain(mark)
        }
        afterLast.set(f.name, tail.length)
      })
    })
  }
})

describe('what a session wrote after its last request', () => {
  it('is kept on a session that ended with the results of its last calls and an interruption (tool_heavy)', () => {
    expect(afterLast.get('spotter/tool_heavy.jsonl')).toBeGreaterThan(0)
  })
})
