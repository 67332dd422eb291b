/**
 * ripgrep, when the system has it: the same search as grep-js.ts (hidden files included, .git excluded,
 * .gitignore honoured even outside a git repository, sorted by path), run through the process door.
 */
import { access } from 'node:fs/promises'
import { constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { GREP_MAX_LINE_CHARS, GREP_MAX_MATCHES, TOOL_OUTPUT_MAX_CHARS } from '../../engine/tools/limits'
import type { GrepMatches, GrepRequest } from './grep-js'
import { shortenMatch } from './grep-js'
import { shownName } from '../../engine/tools/render'
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
    // --null ends each path with a NUL instead of ':', so a path holding a newline or a colon still parses.
    '--no-config', '--line-number', '--with-filename', '--null', '--no-heading', '--color', 'never', '--hidden',
    '--no-require-git', '--glob', '!.git', '--sort', 'path', '--no-messages',
    // No --max-filesize: ripgrep streams a file of any size, and would skip one over the limit without a word,
    // answering "no matches" for a file it never looked at. A slow search meets the timeout, said as such.
    '--max-columns', String(GREP_MAX_LINE_CHARS + 1), '--max-columns-preview',
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
    // Enough for GREP_MAX_MATCHES full lines; more means the search was cut anyway, so ripgrep is stopped there
    // rather than left to pipe every match of a large file through this process.
    maxOutputChars: TOOL_OUTPUT_MAX_CHARS * 4,
    stopOnceFull: true,
  })
  const end = result.end
  if (end.kind === 'spawn_failed') return { ok: false, message: end.message }
  const cutOutput = result.output.omittedChars > 0 || end.kind !== 'exited'
  let raw = joinSplitPaths(result.output.head.split('\n'))
  if (cutOutput || raw[raw.length - 1] === '') raw = raw.slice(0, -1)
  const parsed = raw.map((line) => /^([^\0]*)\0(\d+):(.*)$/s.exec(line.startsWith('./') ? line.slice(2) : line))
  // Exit 2 is "an error happened", and ripgrep still searched what it could. With --no-messages, the errors of files
  // it could not read are not printed, so an output of match lines alone is a partial result; anything else (a
  // pattern ripgrep refuses) is the error itself.
  const partial = end.kind === 'exited' && end.exitCode === 2
  if (partial && parsed.some((m) => m === null)) return { ok: false, message: result.output.head.trim() }
  const lines = parsed.map((m, i) => (m === null ? raw[i]! : `${shownName(m[1]!)}:${m[2]}:${shortenMatch(m[3]!)}`))
  const incomplete =
    end.kind === 'timed_out'
      ? `the search stopped after ${RG_TIMEOUT_MS / 1000} s (a file or rules file it read may have blocked, such as a named pipe), so files not reached by then were not searched.`
      : partial
        ? 'some files or folders could not be read (permissions, names too long, I/O errors) and were not searched.'
        : undefined
  const stoppedEarly = (cutOutput && end.kind !== 'timed_out') || lines.length > GREP_MAX_MATCHES
  return { ok: true, matches: { lines: lines.slice(0, GREP_MAX_MATCHES), stoppedEarly, ...(incomplete ? { incomplete } : {}) } }
}

/**
 * Output lines put back together where a path held a newline: with --null a match line is `path NUL line:text`, so a
 * piece before any NUL that is followed by one is the start of a path. A line of text never holds a newline.
 */
function joinSplitPaths(pieces: ReadonlyArray<string>): string[] {
  const lines: string[] = []
  let pending: string | null = null
  for (const piece of pieces) {
    const joined: string = pending === null ? piece : `${pending}\n${piece}`
    if (!joined.includes('\0') && piece !== '') pending = joined
    else {
      lines.push(joined)
      pending = null
    }
  }
  if (pending !== null) lines.push(pending)
  return lines
}
