/**
 * Copying a request out of the app: as the JSON body, or as a curl command that sends the same bytes. The key
 * is never in the command: it reads `$ANTHROPIC_API_KEY` from the user's shell.
 */

/** The version header the app's SDK (1.x) sends with every request (docs/reference/anthropic-api.md §1). */
export const ANTHROPIC_VERSION = '2026-10-21'
/** A body with `diagnostics` was sent with this beta (src-main/node/model/client.ts). */
export const CACHE_DIAGNOSIS_BETA = 'cache-diagnosis-2026-04-07'
const DEFAULT_URL = 'https://api.anthropic.com/v1/messages'
const DELIMITER = 'LOUPE_REQUEST_BODY'

function hasTopLevel(body: string, key: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body)
    return typeof parsed === 'object' && parsed !== null && key in parsed
  } catch {
    return false
  }
}

/**
 * A curl command for a captured body. The body goes through a quoted here-document inside `$(...)`: the shell
 * expands nothing in it, and the command substitution drops the here-document's final newline, so curl sends
 * exactly the captured bytes (a JSON body written by JSON.stringify never ends in a newline of its own).
 */
export function curlCommand(body: string, options: { url?: string } = {}): string {
  const beta = hasTopLevel(body, 'diagnostics') ? CACHE_DIAGNOSIS_BETA : null
  const lines = [
    `curl ${options.url ?? DEFAULT_URL}`,
    `  -H "x-api-key: $ANTHROPIC_API_KEY"`,
    `  -H "anthropic-version: ${ANTHROPIC_VERSION}"`,
    ...(beta ? [`  -H "anthropic-beta: ${beta}"`] : []),
    `  -H "content-type: application/json"`,
    `  --data-binary "$(cat <<'${DELIMITER}'\n${body}\n${DELIMITER}\n)"`,
  ]
  return lines.join(' \\\n')
}

/** A file name for a saved request: `loupe-<session>-pass-<seq>.json`. */
export function requestFileName(sessionId: string, seq: number): string {
  return `loupe-${sessionId.replace(/[^A-Za-z0-9_-]/g, '')}-pass-${seq}.json`
}
