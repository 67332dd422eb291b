/**
 * The sidebar's sessions as a two-level list: a session another one started (an imported Claude Code session's
 * subagents and compaction calls) is listed right under the session that started it, not wherever its own last
 * activity would sort it, and only while that session is unfolded. Pure: SessionList draws it.
 */

export interface NestableSession {
  readonly id: string
  readonly createdAt: number
  readonly parentSessionId?: string
}

export interface NestedRow<S extends NestableSession> {
  readonly session: S
  /** 0: a session of its own; 1: started by the row above it that has depth 0. */
  readonly depth: 0 | 1
  /** How many sessions it started (listed under it when unfolded). */
  readonly children: number
  readonly unfolded: boolean
}

/**
 * `sessions` in the order given (newest activity first); each one's children follow it, oldest first, when it is in
 * `unfolded`. A child whose parent is not listed is listed on its own. The selected session's parent is unfolded, so
 * the open session always has a row.
 */
export function nestSessions<S extends NestableSession>(sessions: ReadonlyArray<S>, unfolded: ReadonlySet<string>, selectedId: string | null): NestedRow<S>[] {
  const byId = new Map(sessions.map((s) => [s.id, s]))
  const listedParent = (s: S): S | null => (s.parentSessionId === undefined || s.parentSessionId === s.id ? null : (byId.get(s.parentSessionId) ?? null))
  // Two levels: a session is listed under its parent when that parent is itself listed at the top.
  const parentOf = (s: S): string | null => {
    const parent = listedParent(s)
    return parent !== null && listedParent(parent) === null ? parent.id : null
  }
  const childrenOf = new Map<string, S[]>()
  for (const s of sessions) {
    const parent = parentOf(s)
    if (parent === null) continue
    const list = childrenOf.get(parent)
    if (list) list.push(s)
    else childrenOf.set(parent, [s])
  }
  const selected = selectedId === null ? undefined : byId.get(selectedId)
  const selectedParent = selected ? parentOf(selected) : null
  const rows: NestedRow<S>[] = []
  for (const s of sessions) {
    if (parentOf(s) !== null) continue
    const children = childrenOf.get(s.id) ?? []
    const open = children.length > 0 && (unfolded.has(s.id) || selectedParent === s.id)
    rows.push({ session: s, depth: 0, children: children.length, unfolded: open })
    if (!open) continue
    for (const c of [...children].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))) rows.push({ session: c, depth: 1, children: 0, unfolded: false })
  }
  return rows
}
