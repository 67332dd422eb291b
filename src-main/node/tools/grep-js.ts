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
import { errorCode, readRegularFile } from '../fs/regular-file'

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
  /** Stopped at GREP_MAX_MATCHES. */
  readonly stoppedEarly: boolean
  /** Why some of what should have been searched was not (a timeout, unreadable files), or absent. */
  readonly incomplete?: string
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
  // Folders and files that could not be read: said with the result, so "no matches" is not taken for "not there".
  let unreadable = 0
  const skipped = (err: unknown): null => {
    const code = errorCode(err)
    // Skipped on purpose (not a regular file, over the size limit) or gone since it was listed: not a gap.
    if (code !== 'ENOTREGULAR' && code !== 'ETOOLARGE' && code !== 'ENOENT') unreadable++
    return null
  }

  const searchFile = async (rel: string): Promise<void> => {
    const abs = join(request.rootReal, rel)
    // Links, FIFOs, devices and files over the limit are skipped without blocking (regular-file.ts).
    const bytes = await readRegularFile(abs, { maxBytes: GREP_MAX_FILE_BYTES, noFollow: true }).catch(skipped)
    if (bytes === null || isBinary(bytes)) return
    const fileLines = splitLines(bytes.toString('utf8'))
    for (let i = 0; i < fileLines.length && lines.length <= GREP_MAX_MATCHES; i++) {
      if (regex.test(fileLines[i]!)) lines.push(`${rel}:${i + 1}:${shortenMatch(fileLines[i]!)}`)
    }
  }

  const walk = async (folderRel: string): Promise<void> => {
    const entries = (await readdir(join(request.rootReal, folderRel), { withFileTypes: true }).catch(skipped)) ?? []
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
  const stoppedEarly = lines.length > GREP_MAX_MATCHES
  // Counted only over a search that went to the end: one stopped at the match limit left the rest unread anyway.
  const incomplete = unreadable > 0 && !stoppedEarly ? `${unreadable} ${unreadable === 1 ? 'file or folder' : 'files or folders'} could not be read (permissions, names too long, I/O errors) and ${unreadable === 1 ? 'was' : 'were'} not searched.` : undefined
  return { lines: lines.slice(0, GREP_MAX_MATCHES), stoppedEarly, ...(incomplete ? { incomplete } : {}) }
}
