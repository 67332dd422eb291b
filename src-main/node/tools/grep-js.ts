/**
 * The built-in searcher, used when ripgrep is not installed: walks the project in sorted order, never entering
 * ignored folders or following symbolic links, skipping binary and very large files, and stops at
 * GREP_MAX_MATCHES. JavaScript regular expressions, case-sensitive, one line at a time (like ripgrep's default).
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import picomatch from 'picomatch'
import { GREP_MAX_FILE_BYTES, GREP_MAX_LINE_CHARS, GREP_MAX_MATCHES } from '../../engine/tools/limits'
import { splitLines } from '../../engine/tools/render'
import type { GitignoreRules } from './gitignore'
import { isBinary } from './read-file'
import { readRegularFile } from '../fs/regular-file'

export interface GrepRequest {
  readonly rootReal: string
  /** Relative to the root, `.` for all of it. */
  readonly start: string
  readonly startIsFile: boolean
  readonly pattern: string
  readonly glob: string | undefined
  readonly signal: AbortSignal
}

export interface GrepMatches {
  /** `path:line:text`, path relative to the root. */
  readonly lines: ReadonlyArray<string>
  readonly stoppedEarly: boolean
}

export function globFilter(glob: string | undefined): (rel: string) => boolean {
  if (glob === undefined) return () => true
  // Like ripgrep's -g: a glob without "/" is matched against the file name anywhere.
  return picomatch(glob, { dot: true, basename: !glob.includes('/') })
}

export function shortenMatch(text: string): string {
  return text.length > GREP_MAX_LINE_CHARS ? `${text.slice(0, GREP_MAX_LINE_CHARS)}…` : text
}

export async function grepWithJs(request: GrepRequest, rules: GitignoreRules): Promise<GrepMatches> {
  const regex = new RegExp(request.pattern)
  const wanted = globFilter(request.glob)
  const lines: string[] = []

  const searchFile = async (rel: string): Promise<void> => {
    const abs = join(request.rootReal, rel)
    // Links, FIFOs, devices and files over the limit are skipped without blocking (regular-file.ts).
    const bytes = await readRegularFile(abs, { maxBytes: GREP_MAX_FILE_BYTES, noFollow: true }).catch(() => null)
    if (bytes === null || isBinary(bytes)) return
    const fileLines = splitLines(bytes.toString('utf8'))
    for (let i = 0; i < fileLines.length && lines.length <= GREP_MAX_MATCHES; i++) {
      if (regex.test(fileLines[i]!)) lines.push(`${rel}:${i + 1}:${shortenMatch(fileLines[i]!)}`)
    }
  }

  const walk = async (folderRel: string): Promise<void> => {
    const entries = await readdir(join(request.rootReal, folderRel), { withFileTypes: true }).catch(() => [])
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      if (lines.length > GREP_MAX_MATCHES || request.signal.aborted) return
      if (entry.isSymbolicLink() || entry.name === '.git') continue
      const rel = folderRel === '.' ? entry.name : `${folderRel}/${entry.name}`
      if (entry.isDirectory()) {
        if (!(await rules.ignoredByRules(rel, true))) await walk(rel)
      } else if (entry.isFile() && wanted(rel) && !(await rules.ignoredByRules(rel, false))) {
        await searchFile(rel).catch(() => undefined)
      }
    }
  }

  if (request.startIsFile) await searchFile(request.start)
  else await walk(request.start)
  return { lines: lines.slice(0, GREP_MAX_MATCHES), stoppedEarly: lines.length > GREP_MAX_MATCHES }
}
