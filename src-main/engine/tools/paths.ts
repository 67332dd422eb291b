/**
 * Lexical path checks, for the permission engine: can this path argument name something inside the project root
 * at all? This only looks at the text (`..`, absolute paths elsewhere, `~`). It is the early, explainable refusal;
 * the authority is the node file-system door (src-main/node/tools/project-fs.ts), which resolves real paths and
 * symbolic links before every access.
 */

export type LexicalPath =
  | { readonly ok: true; /** `/`-separated, no `.` or `..` segments; `.` for the root itself. */ readonly relative: string }
  | { readonly ok: false; readonly reason: string }

const WINDOWS_ABSOLUTE = /^[A-Za-z]:[\\/]|^\\\\/

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || WINDOWS_ABSOLUTE.test(path)
}

function segments(path: string, windows: boolean): string[] {
  return (windows ? path.replace(/\\/g, '/') : path).split('/').filter((s) => s !== '' && s !== '.')
}

function outside(input: string): LexicalPath {
  return {
    ok: false,
    reason: `${input} is outside the project root. Tools can only reach files inside the project; use a path relative to the root.`,
  }
}

/** Resolves `input` against `root` by text alone and says whether it stays inside. */
export function lexicalProjectPath(root: string, input: string): LexicalPath {
  if (input.includes('\0')) return { ok: false, reason: 'The path contains a NUL character.' }
  if (input === '~' || input.startsWith('~/') || input.startsWith('~\\')) {
    return { ok: false, reason: `${input}: "~" is not expanded and the home folder is outside the project root.` }
  }
  const windows = WINDOWS_ABSOLUTE.test(root)
  let rest: string[]
  if (isAbsolute(input)) {
    const rootSegments = segments(root, windows)
    const inputSegments = segments(input, windows)
    const same = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b)
    const underRoot =
      inputSegments.length >= rootSegments.length && rootSegments.every((s, i) => same(s, inputSegments[i] ?? ''))
    if (!underRoot) return outside(input)
    rest = inputSegments.slice(rootSegments.length)
  } else {
    rest = segments(input, windows)
  }
  const stack: string[] = []
  for (const segment of rest) {
    if (segment === '..') {
      if (stack.length === 0) return outside(input)
      stack.pop()
    } else {
      stack.push(segment)
    }
  }
  return { ok: true, relative: stack.length === 0 ? '.' : stack.join('/') }
}

/** `..` as a whole path segment, also as a brace alternative (`{..,src}/*` expands to `../*`). */
const CLIMBS = /(^|[\\/{,])\.\.($|[\\/},])/

/** A glob pattern stays inside the root when it is relative and never climbs (`..`). */
export function checkGlobPattern(pattern: string): LexicalPath {
  if (isAbsolute(pattern) || pattern.startsWith('~') || CLIMBS.test(pattern)) return outside(pattern)
  return { ok: true, relative: pattern }
}
