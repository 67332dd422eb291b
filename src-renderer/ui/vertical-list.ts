/**
 * The keyboard of a vertical list that is one Tab stop (the Files tree, the sidebar's sessions): Up and Down move to
 * the item before or after (no wrapping), Home and End to the first and last; moving focuses, it does not choose.
 * The horizontal kind, which wraps and chooses, is ui/tablist.ts.
 */

/** The item Up, Down, Home or End moves to from `at`, or undefined (another key, or the end of the list). */
export function verticalStep<T>(items: ReadonlyArray<T>, at: number, key: string): T | undefined {
  if (key === 'ArrowDown') return items[at + 1]
  if (key === 'ArrowUp') return at > 0 ? items[at - 1] : undefined
  if (key === 'Home') return items[0]
  if (key === 'End') return items.at(-1)
  return undefined
}

/**
 * The list's one Tab stop: the item the keyboard was last on while it is still listed, else the preferred one (the
 * open file, the open session) while it is listed, else the first.
 */
export function listTabStop<K>(keys: ReadonlyArray<K>, last: K | null, preferred: K | null): K | null {
  if (last !== null && keys.includes(last)) return last
  if (preferred !== null && keys.includes(preferred)) return preferred
  return keys[0] ?? null
}
