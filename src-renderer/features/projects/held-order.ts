/**
 * The sidebar's sessions while the pointer is over their list (decision 0070): the rows listed when it came keep the
 * order they had then, so a session written to meanwhile (a turn elsewhere, another window, the proxy) does not move
 * the row being aimed at or clicked. A session listed since comes first, where the store puts it; one gone since is
 * gone. Once the pointer leaves, the list is drawn in the store's order again. Pure: SessionList draws it.
 */
export function inHeldOrder<S extends { readonly id: string }>(sessions: ReadonlyArray<S>, held: ReadonlyArray<string> | null): ReadonlyArray<S> {
  if (held === null) return sessions
  const place = new Map(held.map((id, i) => [id, i]))
  const listedSince = sessions.filter((s) => !place.has(s.id))
  const kept = sessions.filter((s) => place.has(s.id)).sort((a, b) => place.get(a.id)! - place.get(b.id)!)
  return [...listedSince, ...kept]
}
