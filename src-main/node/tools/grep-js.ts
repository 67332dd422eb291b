/**
 * The built-in searcher, used when ripgrep is not installed: walks the project in sorted order, never entering
 * ignored folders or following symbolic links, skipping binary and very large files, and stops at
 * GREP_MAX_MATCHES. JavaScript regular expressions, case-sensitive, one line at a time (like ripgrep's default).
 * A file over GREP_MAX_FILE_BYTES is not read whole into memory: it is named in the result as not searched, so
 * "no matches" is never said of a file that was not looked at.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import picomatch from 'picomatch'
import { GREP_MAX_FILE_BYTES, GREP_MAX_LINE_CHARS, GREP_MAX_MATCHES } from '../../engine/tools/limits'
import { groupDigits } from '../../engine/prompt/format'
import { shownName, splitLines } from '../../engine/tools/render'
import type { GitignoreRules } from './gitignore'
import { isBinary } from './read-file'
import { errorCode, FileReadError, readRegularFile } from '../fs/regular-file'

/** Files over the size limit named in the result; past this many, only their count. */
const TOO_LARGE_NAMED = 5

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
  // Files over the size limit: a gap of their own, named, since the model can search them another way.
  const tooLarge: Array<{ rel: string; bytes: number }> = []
  const skipped = (err: unknown): null => {
    const code = errorCode(err)
    // Skipped on purpose (not a regular file) or gone since it was listed: not a gap.
    if (code !== 'ENOTREGULAR' && code !== 'ETOOLARGE' && code !== 'ENOENT') unreadable++
    return null
  }

  const searchFile = async (rel: string): Promise<void> => {
    const abs = join(request.rootReal, rel)
    // Links, FIFOs, devices and files over the limit are skipped without blocking (regular-file.ts).
    const bytes = await readRegularFile(abs, { maxBytes: GREP_MAX_FILE_BYTES, noFollow: true }).catch((err: unknown) => {
      if (err instanceof FileReadError && err.code === 'ETOOLARGE') tooLarge.push({ rel, bytes: Number(err.detail) })
      return skipped(err)
    })
    if (bytes === null || isBinary(bytes)) return
    const fileLines = splitLines(bytes.toString('utf8'))
    for (let i = 0; i < fileLines.length && lines.length <= GREP_MAX_MATCHES; i++) {
      if (regex.test(fileLines[i]!)) lines.push(`${shownName(rel)}:${i + 1}:${shortenMatch(fileLines[i]!)}`)
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
  const gaps: string[] = []
  if (unreadable > 0 && !stoppedEarly) gaps.push(`${unreadable} ${unreadable === 1 ? 'file or folder' : 'files or folders'} could not be read (permissions, names too long, I/O errors) and ${unreadable === 1 ? 'was' : 'were'} not searched.`)
  if (tooLarge.length > 0) gaps.push(tooLargeWords(tooLarge))
  const incomplete = gaps.length > 0 ? gaps.join(' ') : undefined
  return { lines: lines.slice(0, GREP_MAX_MATCHES), stoppedEarly, ...(incomplete ? { incomplete } : {}) }
}

/** "huge.log (209,715,170 bytes) is larger than …": the files over the limit, the first few by name, sizes exact. */
export function tooLargeWords(files: ReadonlyArray<{ rel: string; bytes: number }>): string {
  const bytes = (n: number) => `${groupDigits(n)} bytes`
  const named = files.slice(0, TOO_LARGE_NAMED).map((f) => `${shownName(f.rel)} (${bytes(f.bytes)})`)
  const more = files.length > TOO_LARGE_NAMED ? ` and ${files.length - TOO_LARGE_NAMED} more` : ''
  const limit = `${bytes(GREP_MAX_FILE_BYTES)} (${GREP_MAX_FILE_BYTES / (1024 * 1024)} MiB)`
  const subject = files.length === 1 ? `${named[0]} is` : `${named.join(', ')}${more} are`
  return `${subject} larger than the ${limit} grep reads in one file and ${files.length === 1 ? 'was' : 'were'} not searched; search ${files.length === 1 ? 'it' : 'them'} with a command such as grep -n.`
}
