/**
 * ripgrep, when the system has it: the same search as grep-js.ts (hidden files included, .git excluded,
 * .gitignore honoured even outside a git repository, sorted by path), run through the process door.
 */
import { access } from 'node:fs/promises'
import { constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { GREP_MAX_FILE_BYTES, GREP_MAX_LINE_CHARS, GREP_MAX_MATCHES, TOOL_OUTPUT_MAX_CHARS } from '../../engine/tools/limits'
import type { GrepMatches, GrepRequest } from './grep-js'
import { shortenMatch } from './grep-js'
import { runProcess } from './process'

/** A search taking longer than this is stopped; its partial result is still returned. */
const RG_TIMEOUT_MS = 30_000

/** The first `rg` on PATH, or null. */
export async function findRipgrep(env: NodeJS.ProcessEnv): Promise<string | null> {
  const names = process.platform === 'win32' ? ['rg.exe'] : ['rg']
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue
    for (const name of names) {
      const candidate = join(folder, name)
      const ok = await access(candidate, constants.X_OK).then(() => true, () => false)
      if (ok) return candidate
    }
  }
  return null
}

export type RipgrepResult = { readonly ok: true; readonly matches: GrepMatches } | { readonly ok: false; readonly message: string }

export async function grepWithRipgrep(rg: string, request: GrepRequest, env: NodeJS.ProcessEnv): Promise<RipgrepResult> {
  const args = [
    '--no-config', '--line-number', '--with-filename', '--no-heading', '--color', 'never', '--hidden',
    '--no-require-git', '--glob', '!.git', '--sort', 'path', '--no-messages',
    '--max-filesize', String(GREP_MAX_FILE_BYTES), '--max-columns', String(GREP_MAX_LINE_CHARS + 1), '--max-columns-preview',
  ]
  if (request.glob !== undefined) args.push('--glob', request.glob)
  args.push('--regexp', request.pattern, '--', request.start)
  const result = await runProcess({
    file: rg,
    args,
    cwd: request.rootReal,
    env,
    timeoutMs: RG_TIMEOUT_MS,
    signal: request.signal,
    // Enough for GREP_MAX_MATCHES full lines; more means the search was cut anyway.
    maxOutputChars: TOOL_OUTPUT_MAX_CHARS * 4,
  })
  const end = result.end
  if (end.kind === 'spawn_failed') return { ok: false, message: end.message }
  if (end.kind === 'exited' && end.exitCode === 2) return { ok: false, message: result.output.head.trim() }
  const cut = result.output.omittedChars > 0 || end.kind !== 'exited'
  let raw = result.output.head.split('\n')
  if (cut || raw[raw.length - 1] === '') raw = raw.slice(0, -1)
  const lines = raw.map((line) => {
    const clean = line.startsWith('./') ? line.slice(2) : line
    const match = /^(.*?):(\d+):(.*)$/.exec(clean)
    return match === null ? clean : `${match[1]}:${match[2]}:${shortenMatch(match[3]!)}`
  })
  return { ok: true, matches: { lines: lines.slice(0, GREP_MAX_MATCHES), stoppedEarly: cut || lines.length > GREP_MAX_MATCHES } }
}
