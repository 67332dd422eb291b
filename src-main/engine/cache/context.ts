/**
 * What the app knows about how a request was made, beyond its bytes: which system block is which, which entries
 * each message came from, why the session block has its bytes, and the fingerprint of each section. The walk finds
 * *where* a request changed; this says *what* changed and who changed it.
 */
import type { PromptPlan } from '../prompt/plan'
import type { SnapshotOrigin } from '../prompt/snapshot'
import type { MessageOrigin } from './limit'

export interface SectionPrint {
  readonly section: string
  readonly part: string | null
  readonly sha256: string
}

export interface PassContext {
  /** Per system block: the static or the session block, or null when unknown. */
  readonly system: ReadonlyArray<'static' | 'session' | null>
  /** Per message: its origin; null when the request was not built from entries. */
  readonly messages: ReadonlyArray<MessageOrigin> | null
  readonly sessionOrigin: SnapshotOrigin | null
  readonly fingerprints: ReadonlyArray<SectionPrint>
}

export const EMPTY_CONTEXT: PassContext = { system: [], messages: null, sessionOrigin: null, fingerprints: [] }

// A history message keeps its provenance object from pass to pass; its origin is made once.
const origins = new WeakMap<object, MessageOrigin>()

export function contextFromPlan(plan: PromptPlan): PassContext {
  return {
    system: plan.system.map((b) => (b.provenance.kind === 'system' ? b.provenance.block : null)),
    messages: plan.messages.map((m) => {
      let origin = origins.get(m.provenance)
      if (!origin) origins.set(m.provenance, (origin = { entryIds: m.provenance.entryIds, kind: m.provenance.kind }))
      return origin
    }),
    sessionOrigin: plan.sessionOrigin,
    fingerprints: plan.fingerprints.map((f) => ({ section: f.section, part: f.part, sha256: f.sha256 })),
  }
}

/** Sections (and their files) whose fingerprint differs between two passes, or that one of them lacks. */
export function changedSections(previous: ReadonlyArray<SectionPrint>, current: ReadonlyArray<SectionPrint>): SectionPrint[] {
  const key = (p: SectionPrint): string => `${p.section}\u0000${p.part ?? ''}`
  const before = new Map(previous.map((p) => [key(p), p.sha256]))
  const after = new Set(current.map(key))
  const out: SectionPrint[] = []
  for (const p of current) if (before.get(key(p)) !== p.sha256) out.push(p)
  for (const p of previous) if (!after.has(key(p))) out.push(p)
  return out
}
