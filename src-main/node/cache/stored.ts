/**
 * Reading what the store keeps about a pass back into the engine's terms: the request body as a walk, the plan
 * summary and segment provenance as a context, the response's cache diagnostics, and the session's entries as the
 * describer a cause uses to name an edit.
 */
import type { CacheMissReason } from '../../engine/ports'
import type { WireRequest } from '../../engine/model/wire'
import { wireRequestOf } from '../../engine/model/wire-body'
import type { SnapshotOrigin } from '../../engine/prompt/snapshot'
import type { EntryDescriber, EntryDescription, MessageOrigin, PassContext, SectionPrint } from '../../engine/cache'
import type { Entry } from '../../engine/conversation/entries'
import type { Store } from '../store'
import type { StoredSegment } from '../store/passes'

type Json = Record<string, unknown>
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The request body as sent, in block form: a captured foreign agent may have sent `system` or a message's content
 * as a string. The capture adds `stream` and `diagnostics`, which the walk ignores.
 */
export function requestFromBody(body: string): WireRequest | null {
  try {
    return wireRequestOf(JSON.parse(body) as unknown)
  } catch {
    return null
  }
}

function diagnosticsOf(message: unknown): CacheMissReason | null | undefined {
  if (!isRecord(message) || !('diagnostics' in message)) return undefined
  const d = message.diagnostics
  if (d === null) return null
  return isRecord(d) && isRecord(d.cache_miss_reason) ? (d.cache_miss_reason as unknown as CacheMissReason) : null
}

/**
 * The API's cache diagnostics from a raw response: in `message_start.message` when streamed, in the body otherwise.
 * Undefined when the request did not ask for them.
 */
export function diagnosisFromResponse(raw: string | null): CacheMissReason | null | undefined {
  if (!raw) return undefined
  const trimmed = raw.trimStart()
  if (trimmed.startsWith('{')) {
    try {
      return diagnosticsOf(JSON.parse(trimmed))
    } catch {
      return undefined
    }
  }
  for (const line of raw.split('\n')) {
    if (!line.startsWith('data:') || !line.includes('"message_start"')) continue
    try {
      const event = JSON.parse(line.slice(5)) as unknown
      if (isRecord(event) && event.type === 'message_start') return diagnosticsOf(event.message)
    } catch {
      return undefined
    }
  }
  return undefined
}

/** A context from the stored plan summary and segment provenance (src-main/node/session/store-log.ts writes them). */
export function contextFromStored(plan: unknown, segments: ReadonlyArray<StoredSegment>): PassContext {
  const system: Array<'static' | 'session' | null> = []
  const messages: MessageOrigin[] = []
  let allMessages = true
  for (const s of segments) {
    const m = /^(system|messages)\[(\d+)\]$/.exec(s.path)
    if (!m) continue
    const index = Number(m[2])
    const p = isRecord(s.provenance) ? s.provenance : {}
    if (m[1] === 'system') system[index] = p.block === 'static' || p.block === 'session' ? p.block : null
    else if (Array.isArray(p.entryIds)) messages[index] = { entryIds: p.entryIds.filter((x): x is string => typeof x === 'string'), kind: typeof p.historyKind === 'string' ? p.historyKind : 'unknown' }
    else allMessages = false
  }
  const summary = isRecord(plan) ? plan : {}
  const fingerprints: SectionPrint[] = Array.isArray(summary.fingerprints)
    ? summary.fingerprints.filter(isRecord).map((f) => ({ section: String(f.section), part: typeof f.part === 'string' ? f.part : null, sha256: String(f.sha256) }))
    : []
  const origin = isRecord(summary.sessionOrigin) ? (summary.sessionOrigin as unknown as SnapshotOrigin) : null
  return { system: Array.from(system, (b) => b ?? null), messages: allMessages && messages.length > 0 ? Array.from(messages, (m) => m ?? { entryIds: [], kind: 'unknown' }) : null, sessionOrigin: origin, fingerprints }
}

/**
 * Names the entries a cause mentions. Entries are read once, when a cause first asks (from `held`, the session log's
 * entries, when the caller has them). Entry kinds are read loosely
 * (`context_edit` with `source` and `edits[].entryId`; `checkpoint` with `trigger` and `view.replaced`), so an entry
 * kind this file does not know yet is still named by its kind.
 */
export function storeDescriber(store: Store, sessionId: string, held?: () => ReadonlyArray<Entry>): EntryDescriber {
  let entries: ReadonlyArray<Json> | null = null
  const all = (): ReadonlyArray<Json> => (entries ??= (held ? held() : store.entries.list(sessionId)) as unknown as ReadonlyArray<Json>)
  const describe = (e: Json): EntryDescription => {
    const entryId = String(e.id)
    const at = typeof e.at === 'number' ? e.at : null
    if (e.kind === 'context_edit') return { kind: 'context_edit', entryId, source: typeof e.source === 'string' ? e.source : 'an extension', at }
    if (e.kind === 'checkpoint') return { kind: 'checkpoint', entryId, trigger: typeof e.trigger === 'string' ? e.trigger : null, at }
    return { kind: 'entry', entryId, entryKind: String(e.kind), at }
  }
  return {
    entry: (id) => {
      const e = all().find((x) => x.id === id)
      return e ? describe(e) : null
    },
    editOf: (ids) => {
      const wanted = new Set(ids)
      // The latest edit wins: it is the one whose bytes the pass sent.
      for (const e of [...all()].reverse()) {
        if (e.kind === 'context_edit' && Array.isArray(e.edits) && e.edits.some((x) => isRecord(x) && wanted.has(String(x.entryId)))) return describe(e)
        const view = isRecord(e.view) ? e.view : null
        if (e.kind === 'checkpoint' && view && Array.isArray(view.replaced) && view.replaced.some((x) => isRecord(x) && wanted.has(String(x.entryId)))) return describe(e)
      }
      return null
    },
  }
}
