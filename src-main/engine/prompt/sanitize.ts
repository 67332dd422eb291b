/**
 * The two places where outside strings enter fixed text: names on the identity line, and paths shown to the model.
 */

/** Longest identity value kept; model ids are far shorter. */
const IDENTITY_MAX_CHARS = 80

/**
 * Keeps visible ASCII (0x21–0x7E) except `<` and `>`, so a model id or app name can add no line, no space-separated
 * instruction and no tag-like marker to the system prompt. Returns `unknown` when nothing is left.
 */
export function sanitizeIdentity(value: string): string {
  let out = ''
  for (let i = 0; i < value.length && out.length < IDENTITY_MAX_CHARS; i++) {
    const code = value.charCodeAt(i)
    if (code >= 0x21 && code <= 0x7e && code !== 0x3c && code !== 0x3e) out += value[i]
  }
  return out.length > 0 ? out : 'unknown'
}

/**
 * A path as shown inside prompt text: control characters (a newline in a folder name is legal on Linux) and the
 * Unicode line and paragraph separators become `?`, so a path stays on one line. Everything else is kept.
 */
export function displayPath(path: string): string {
  // eslint-disable-next-line no-control-regex
  return path.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?')
}
