/**
 * The table of files read for one gathering: each file once (by real path), with its `@path` imports resolved and
 * read breadth first up to the depth limit. Every refusal becomes a GatherNote.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { GatheredFile, GatherNote, ImportLink } from '../../engine/prompt/gathered'
import { MAX_INSTRUCTION_FILE_BYTES } from '../../engine/prompt/gathered'
import { MAX_IMPORT_DEPTH, skipWords } from '../../engine/prompt/instructions'
import { findImportRefs } from '../../engine/prompt/import-refs'
import type { FileAccess, Located } from './safe-read'
import { locate, nodeFileAccess, readLocated } from './safe-read'

export interface DisplayRoots {
  /** The real path of the project root: files under it show as root-relative paths. */
  readonly root: string
  readonly homeDir: string
}

/** A path as the model and the user see it: root-relative, `~/…` under the home folder, else absolute. */
export function displayPathFor(absPath: string, roots: DisplayRoots): string {
  const underRoot = relative(roots.root, absPath)
  if (underRoot !== '' && !underRoot.startsWith('..') && !isAbsolute(underRoot)) return underRoot.split(sep).join('/')
  const underHome = relative(roots.homeDir, absPath)
  if (underHome !== '' && !underHome.startsWith('..') && !isAbsolute(underHome)) return `~/${underHome.split(sep).join('/')}`
  return absPath
}

interface Entry {
  id: string
  path: string
  /** Where the file was asked for (its imports resolve relative to this folder). */
  requestedPath: string
  read: GatheredFile['read']
  imports: ImportLink[]
}

/** Reads in flight at once while prefetching: enough to keep libuv's thread pool busy, few enough for any fd limit. */
const PREFETCH_CONCURRENCY = 16

interface Fetched {
  readonly located: Located
  readonly read: GatheredFile['read'] | null
}

export class FileTable {
  private readonly entries = new Map<string, Entry>()
  private readonly fetched = new Map<string, Promise<Fetched>>()
  readonly notes: GatherNote[] = []

  constructor(
    private readonly roots: DisplayRoots,
    private readonly io: FileAccess = nodeFileAccess,
  ) {}

  /** Reads a top-level file (instruction, rule, memory, skill) and its imports. Returns its id, or null if absent. */
  async readTop(absPath: string, allowedRoots: ReadonlyArray<string>): Promise<string | null> {
    const id = await this.readOne(absPath, allowedRoots, true)
    if (id !== null) await this.expandImports(id, allowedRoots)
    return id
  }

  /** Reads a file without following its imports (package.json). */
  async readPlain(absPath: string, allowedRoots: ReadonlyArray<string>): Promise<string | null> {
    return this.readOne(absPath, allowedRoots, false)
  }

  /**
   * Starts locating and reading `paths` concurrently. The table still takes them in the order it is asked for them,
   * so notes and ids come out the same whatever order the reads finish in.
   */
  async prefetch(paths: ReadonlyArray<string>, allowedRoots: ReadonlyArray<string>): Promise<void> {
    for (let i = 0; i < paths.length; i += PREFETCH_CONCURRENCY) {
      await Promise.all(paths.slice(i, i + PREFETCH_CONCURRENCY).map((path) => this.fetch(path, allowedRoots)))
    }
  }

  private fetch(absPath: string, allowedRoots: ReadonlyArray<string>): Promise<Fetched> {
    const key = `${allowedRoots.join('\0')}\0${absPath}`
    let pending = this.fetched.get(key)
    if (pending === undefined) {
      pending = (async () => {
        const located = await locate(absPath, allowedRoots, this.io)
        if (located.kind !== 'file') return { located, read: null }
        const read: GatheredFile['read'] =
          located.size > MAX_INSTRUCTION_FILE_BYTES
            ? { ok: false, reason: 'too_large', detail: `${located.size} bytes` }
            : await readLocated(located.realPath, this.io)
        return { located, read: read.ok && located.modifiedMs !== null ? { ...read, modifiedMs: located.modifiedMs } : read }
      })()
      this.fetched.set(key, pending)
    }
    return pending
  }

  get(id: string): GatheredFile | undefined {
    return this.entries.get(id)
  }

  files(): Record<string, GatheredFile> {
    const out: Record<string, GatheredFile> = {}
    for (const e of this.entries.values()) out[e.id] = { id: e.id, path: e.path, read: e.read, imports: e.imports }
    return out
  }

  private note(path: string, reason: GatherNote['reason'], message: string): void {
    this.notes.push({ path, reason, message })
  }

  private async readOne(absPath: string, allowedRoots: ReadonlyArray<string>, reportNotAFile: boolean): Promise<string | null> {
    const path = displayPathFor(absPath, this.roots)
    const { located, read: fetchedRead } = await this.fetch(absPath, allowedRoots)
    switch (located.kind) {
      case 'missing':
        return null
      case 'not_a_file':
        if (reportNotAFile) this.note(path, 'not_a_file', `${path} was not read: ${skipWords('not_a_file')}`)
        return null
      case 'outside':
        return this.refuse(absPath, path, 'outside_allowed_roots', skipWords('outside_allowed_roots'))
      case 'unreadable':
        return this.refuse(absPath, path, 'unreadable', located.detail)
      case 'file': {
        const existing = this.entries.get(located.realPath)
        if (existing !== undefined) return existing.id
        const read = fetchedRead!
        this.entries.set(located.realPath, { id: located.realPath, path, requestedPath: absPath, read, imports: [] })
        if (!read.ok) this.note(path, read.reason, `${path} was not read: ${skipWords(read.reason)}`)
        else if (read.replacedInvalidUtf8) this.note(path, 'invalid_utf8_replaced', `${path} is not valid UTF-8; invalid bytes were replaced with U+FFFD`)
        return located.realPath
      }
    }
  }

  /** `detail`: why, as the reader said it (a broken link, an error code); the note says it of the file. */
  private refuse(absPath: string, path: string, reason: 'outside_allowed_roots' | 'unreadable', detail: string): string {
    if (!this.entries.has(absPath)) {
      this.entries.set(absPath, { id: absPath, path, requestedPath: absPath, read: { ok: false, reason, detail }, imports: [] })
      this.note(path, reason, `${path} was not read: ${detail}`)
    }
    return absPath
  }

  /** Breadth first, so each file is reached at its smallest depth. */
  private async expandImports(startId: string, allowedRoots: ReadonlyArray<string>): Promise<void> {
    const queue: Array<{ id: string; depth: number }> = [{ id: startId, depth: 0 }]
    const visited = new Set<string>([startId])
    while (queue.length > 0) {
      const { id, depth } = queue.shift()!
      const entry = this.entries.get(id)
      if (entry === undefined || !entry.read.ok || entry.imports.length > 0) continue
      const links: ImportLink[] = []
      for (const ref of findImportRefs(entry.read.text)) {
        const link = await this.resolveRef(ref, entry, depth, allowedRoots)
        links.push(link)
        if (link.status === 'file' && !visited.has(link.targetId)) {
          visited.add(link.targetId)
          queue.push({ id: link.targetId, depth: depth + 1 })
        }
      }
      entry.imports = links
    }
  }

  private async resolveRef(ref: string, importer: Entry, depth: number, allowedRoots: ReadonlyArray<string>): Promise<ImportLink> {
    if (ref.includes('://')) return { ref, status: 'not_a_file' }
    const target = ref.startsWith('~/')
      ? join(this.roots.homeDir, ref.slice(2))
      : isAbsolute(ref)
        ? ref
        : resolve(dirname(importer.requestedPath), ref)
    const path = displayPathFor(target, this.roots)
    const located = await locate(target, allowedRoots, this.io)
    switch (located.kind) {
      case 'missing':
      case 'not_a_file':
        // Usually an `@scope/pkg` string or a mention of a user: the text is left alone, and no note is due.
        return { ref, status: 'not_a_file' }
      case 'outside':
        this.note(path, 'outside_allowed_roots', `@${ref} in ${importer.path} was not read: ${skipWords('outside_allowed_roots')}`)
        return { ref, status: 'skipped', path, reason: 'outside_allowed_roots' }
      case 'unreadable':
        this.note(path, 'unreadable', `@${ref} in ${importer.path} was not read: ${located.detail}`)
        return { ref, status: 'skipped', path, reason: 'unreadable' }
      case 'file': {
        if (depth + 1 > MAX_IMPORT_DEPTH) {
          this.note(path, 'import_depth_limit', `@${ref} in ${importer.path} was not followed: imports go at most ${MAX_IMPORT_DEPTH} levels deep`)
          return { ref, status: 'depth_limit', path }
        }
        const id = await this.readOne(target, allowedRoots, false)
        return id === null ? { ref, status: 'not_a_file' } : { ref, status: 'file', targetId: id }
      }
    }
  }
}
