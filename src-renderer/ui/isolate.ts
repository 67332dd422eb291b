/**
 * A sentence the app words around a name it was given — a file's path, a session's title, a reason the user typed —
 * cut so that each such name can be set apart (`<bdi>`, ui/Isolated.tsx): a right-to-left name, or a direction
 * override in one, then turns only itself, not the app's words after it.
 */

/** A piece of a sentence: the app's words as they are, or a name to set apart. */
export type SentencePart = string | { readonly isolated: string }

/**
 * `text` cut at every occurrence of one of `names` (the longest where two start at one place); the empty name is
 * never looked for. A name the text does not hold leaves it whole.
 */
export function isolateNames(text: string, names: ReadonlyArray<string>): SentencePart[] {
  const wanted = [...new Set(names.filter((n) => n !== ''))].sort((a, b) => b.length - a.length)
  const parts: SentencePart[] = []
  let rest = 0
  for (;;) {
    let at = -1
    let found = ''
    for (const name of wanted) {
      const i = text.indexOf(name, rest)
      if (i >= 0 && (at < 0 || i < at)) [at, found] = [i, name]
    }
    if (at < 0) break
    if (at > rest) parts.push(text.slice(rest, at))
    parts.push({ isolated: found })
    rest = at + found.length
  }
  if (rest < text.length) parts.push(text.slice(rest))
  return parts
}

/**
 * A path cut into its names and the separators between them (`/`, and `\` as Windows writes paths), in order:
 * names at even indexes, separators at odd ones. Each name can then be set apart on its own, so a direction override
 * inside one folder's name turns that name only, not the names after it.
 */
export function pathParts(path: string): string[] {
  return path.split(/([/\\])/)
}
