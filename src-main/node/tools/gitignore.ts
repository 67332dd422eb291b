/**
 * .gitignore rules as git applies them: each folder's .gitignore speaks for paths below it, deeper files override
 * shallower ones (the last matching rule wins, `!` re-includes), `.git/info/exclude` counts as the root's, and
 * nothing under an ignored folder can be re-included. `.git` itself is always ignored.
 *
 * A rules file is a file of the project, so it may be anything: it is read only when it is a regular file of at
 * most GITIGNORE_MAX_BYTES whose real path (a symbolic link followed) stays inside the root. A FIFO, a device, a
 * link out of the root (`.gitignore -> /dev/zero`), a loop or a huge file is not read; its rules do not apply and
 * a note says so (`notes()`), which glob and grep pass on.
 */
import { realpath } from 'node:fs/promises'
import { join } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { isInside } from './project-fs'
import { describeReadError, errorCode, readRegularFile } from '../fs/regular-file'

/** A .gitignore larger than this is not a list of patterns; it is left out with a note. */
export const GITIGNORE_MAX_BYTES = 1024 * 1024

export class GitignoreRules {
  private readonly levels = new Map<string, Promise<Ignore | null>>()
  private readonly folders = new Map<string, Promise<boolean>>()
  private readonly skipped = new Map<string, string>()

  constructor(private readonly rootReal: string) {}

  /** Rules files that were not read, and why, sorted by path: one sentence each. */
  notes(): ReadonlyArray<string> {
    return [...this.skipped.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, message]) => message)
  }

  /**
   * Whether a rules file of the root or of a folder on the way to `rel` (`rel` itself for a folder) was not read.
   * Loads those rules to find out.
   */
  async troubledAbove(rel: string, isDir: boolean): Promise<boolean> {
    const parts = rel === '.' || rel === '' ? [] : rel.split('/')
    const deepest = isDir ? parts.length : parts.length - 1
    const folders: string[] = []
    for (let depth = 0; depth <= deepest; depth++) folders.push(parts.slice(0, depth).join('/'))
    await Promise.all(folders.map((folder) => this.level(folder)))
    if (this.skipped.has('.git/info/exclude')) return true
    return folders.some((folder) => this.skipped.has(folder === '' ? '.gitignore' : `${folder}/.gitignore`))
  }

  /** The text of one rules file ('' when there is none or it is not read). `rel` is relative to the root. */
  private async readRules(rel: string): Promise<string> {
    const abs = join(this.rootReal, rel)
    /** `problem` starts with `rel`: ".gitignore is a named pipe (FIFO), not a regular file". */
    const skip = (problem: string): string => {
      this.skipped.set(rel, `${problem}; its rules were not applied.`)
      return ''
    }
    let real: string
    try {
      real = await realpath(abs)
    } catch (error) {
      const code = errorCode(error)
      if (code === 'ENOENT' || code === 'ENOTDIR') return ''
      return skip(describeReadError(rel, error))
    }
    if (!isInside(this.rootReal, real)) return skip(`${rel} is a symbolic link out of the project`)
    try {
      return (await readRegularFile(real, { maxBytes: GITIGNORE_MAX_BYTES, shownAs: rel })).toString('utf8')
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return ''
      return skip(describeReadError(rel, error))
    }
  }

  private level(folder: string): Promise<Ignore | null> {
    let rules = this.levels.get(folder)
    if (rules === undefined) {
      rules = this.load(folder)
      this.levels.set(folder, rules)
    }
    return rules
  }

  private async load(folder: string): Promise<Ignore | null> {
    const sources = [folder === '' ? '.gitignore' : `${folder}/.gitignore`]
    if (folder === '') sources.push('.git/info/exclude')
    const texts = await Promise.all(sources.map((rel) => this.readRules(rel)))
    const text = texts.join('\n')
    return text.trim() === '' ? null : ignore().add(text)
  }

  /**
   * Whether the rules of `rel`'s own ancestors ignore it, not looking at whether an ancestor folder is itself
   * ignored. Enough for a walk that never enters ignored folders.
   */
  async ignoredByRules(rel: string, isDir: boolean): Promise<boolean> {
    const parts = rel.split('/')
    if (parts.includes('.git')) return true
    let ignored = false
    for (let depth = 0; depth < parts.length; depth++) {
      const folder = parts.slice(0, depth).join('/')
      const rules = await this.level(folder)
      if (rules === null) continue
      const below = parts.slice(depth).join('/') + (isDir ? '/' : '')
      const verdict = rules.test(below)
      if (verdict.ignored) ignored = true
      else if (verdict.unignored) ignored = false
    }
    return ignored
  }

  /** Whether git would ignore `rel`, ignored ancestor folders included. */
  async isIgnored(rel: string, isDir: boolean): Promise<boolean> {
    const parts = rel.split('/')
    for (let depth = 1; depth < parts.length; depth++) {
      if (await this.isIgnoredFolder(parts.slice(0, depth).join('/'))) return true
    }
    return this.ignoredByRules(rel, isDir)
  }

  private isIgnoredFolder(folder: string): Promise<boolean> {
    let verdict = this.folders.get(folder)
    if (verdict === undefined) {
      verdict = this.isIgnored(folder, true)
      this.folders.set(folder, verdict)
    }
    return verdict
  }
}

/** The lines glob and grep add after their result for rules files that were not read; '' when there are none. */
export function rulesFileNotes(notes: ReadonlyArray<string>, max = 5): string {
  if (notes.length === 0) return ''
  const shown = notes.slice(0, max).map((n) => `\n[${n}]`)
  const more = notes.length > max ? `\n[${notes.length - max} more .gitignore files were not read.]` : ''
  return shown.join('') + more
}
