/**
 * .gitignore rules as git applies them: each folder's .gitignore speaks for paths below it, deeper files override
 * shallower ones (the last matching rule wins, `!` re-includes), `.git/info/exclude` counts as the root's, and
 * nothing under an ignored folder can be re-included. `.git` itself is always ignored.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import ignore, { type Ignore } from 'ignore'

export class GitignoreRules {
  private readonly levels = new Map<string, Promise<Ignore | null>>()
  private readonly folders = new Map<string, Promise<boolean>>()

  constructor(private readonly rootReal: string) {}

  private level(folder: string): Promise<Ignore | null> {
    let rules = this.levels.get(folder)
    if (rules === undefined) {
      rules = this.load(folder)
      this.levels.set(folder, rules)
    }
    return rules
  }

  private async load(folder: string): Promise<Ignore | null> {
    const sources = [join(this.rootReal, folder, '.gitignore')]
    if (folder === '') sources.push(join(this.rootReal, '.git', 'info', 'exclude'))
    const texts = await Promise.all(sources.map((file) => readFile(file, 'utf8').catch(() => '')))
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
