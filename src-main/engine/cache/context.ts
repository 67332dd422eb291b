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
  const before = keyed(previous)
  const after = keyed(current)
  const out: SectionPrint[] = []
  for (const [k, p] of after) if (before.get(k)?.sha256 !== p.sha256) out.push(p)
  for (const [k, p] of before) if (!after.has(k)) out.push(p)
  return out
}

/**
 * Each print under its section, file and occurrence: one file can be in a section twice (AGENTS.md read as itself and
 * again as imported by CLAUDE.md), and keyed by file alone the second would hide the first, which then always looks
 * changed.
 */
function keyed(prints: ReadonlyArray<SectionPrint>): Map<string, SectionPrint> {
  const out = new Map<string, SectionPrint>()
  for (const p of prints) {
    const base = `${p.section}\u0000${p.part ?? ''}`
    let n = 0
    while (out.has(`${base}\u0000${n}`)) n++
    out.set(`${base}\u0000${n}`, p)
  }
  return out
}
