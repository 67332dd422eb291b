/**
 * The built-in memory extension (docs/compaction.md "Context edits and extension points"): the same files the
 * `remember` tool writes and the session block shows — project memory `<root>/.loupe/memory.md`, user memory
 * `<loupeHome>/memory.md` — one fact per list item. Written against the `MemoryProvider` interface a project's own
 * memory implements. No recall: the files are already in the session block, frozen again at each checkpoint.
 *
 * save and forget rewrite the whole file from what was read, under the file's lock (fs/path-lock.ts, shared with the
 * remember tool and the Files view), so a fact saved at the same moment by another session is not written over. The
 * read is exact or the call fails: only a missing file counts as empty, and a file that cannot be read (permissions,
 * I/O, a FIFO or device, over 1 MB) or is not valid UTF-8 makes save, forget and search throw with a message saying
 * why, and nothing is written.
 */
import { createHash } from 'node:crypto'
import { realpath } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { MemoryItem, MemoryProvider } from '../../engine/compaction/extensions'
import { locate } from '../instructions/safe-read'
import { writeFileAtomic } from '../fs/atomic-write'
import { withFileLock } from '../fs/path-lock'
import { readRegularFile } from '../fs/regular-file'
import { MEMORY_MAX_BYTES, MemoryFileError, normaliseFact, PROJECT_MEMORY_PATH, readMemoryText, USER_MEMORY_FILE } from '../tools/remember'
import { makeFolders } from '../fs/make-folders'

const ITEM = /^\s*[-*]\s+(.+?)\s*$/

function itemId(scope: 'project' | 'user', text: string): string {
  return `${scope}:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`
}

export function createFileMemory(root: string, loupeHome: string): MemoryProvider {
  /** The memory file of a scope, or why the project's is not used (it resolves outside the project, or dangles). */
  const fileOf = async (scope: 'project' | 'user'): Promise<{ file: string } | { refused: string }> => {
    if (scope === 'user') return { file: join(loupeHome, USER_MEMORY_FILE) }
    const realRoot = await realpath(root)
    const path = join(realRoot, PROJECT_MEMORY_PATH)
    const located = await locate(path, [realRoot])
    // A FIFO or folder is handed on: reading it fails with a message that says what it is.
    if (located.kind === 'file' || located.kind === 'missing' || located.kind === 'not_a_file') {
      // A missing file may still sit under a `.loupe` that links elsewhere.
      const parent = await locate(dirname(path), [realRoot])
      return parent.kind === 'outside' ? { refused: `${PROJECT_MEMORY_PATH} resolves outside the project` } : { file: path }
    }
    return { refused: located.kind === 'outside' ? `${PROJECT_MEMORY_PATH} resolves outside the project` : `${PROJECT_MEMORY_PATH} cannot be read: ${located.detail}` }
  }
  /** The file's lines, exactly; throws (saying what `doing` did not do) when it cannot be read exactly. */
  const linesOf = async (file: string, doing: string): Promise<string[]> => {
    let text: string
    try {
      text = await readMemoryText(() => readRegularFile(file, { maxBytes: MEMORY_MAX_BYTES }), file)
    } catch (err) {
      if (err instanceof MemoryFileError) throw new Error(`${doing}: ${err.message}. The memory file was left as it is.`)
      throw err
    }
    return text === '' ? [] : text.split('\n')
  }
  const read = async (scope: 'project' | 'user', doing: string): Promise<{ file: string | null; refused?: string; lines: string[] }> => {
    const where = await fileOf(scope)
    if ('refused' in where) return { file: null, refused: where.refused, lines: [] }
    return { file: where.file, lines: await linesOf(where.file, doing) }
  }
  const items = async (): Promise<MemoryItem[]> => {
    const out: MemoryItem[] = []
    for (const scope of ['project', 'user'] as const) {
      for (const line of (await read(scope, 'Memory was not searched')).lines) {
        const m = ITEM.exec(line)
        if (m) out.push({ id: itemId(scope, m[1]!), scope, text: m[1]! })
      }
    }
    return out
  }
  return {
    name: 'file',
    async save(fact, scope) {
      const text = normaliseFact(fact)
      const where = await fileOf(scope)
      if ('refused' in where) throw new Error(`Nothing was saved: ${where.refused}`)
      const file = where.file
      // Read and rewritten under the file's lock, as the remember tool and the Files view do.
      await withFileLock(file, async () => {
        const body = (await linesOf(file, 'Nothing was saved')).join('\n')
        await makeFolders(dirname(file))
        await writeFileAtomic(file, `${body}${body === '' || body.endsWith('\n') ? '' : '\n'}- ${text}\n`)
      })
      return { id: itemId(scope, text), scope, text }
    },
    async search(query, limit) {
      const words = query.toLowerCase().split(/\W+/).filter((w) => w.length >= 3)
      const scored = (await items())
        .map((item) => ({ item, score: words.filter((w) => item.text.toLowerCase().includes(w)).length }))
        .filter((s) => words.length === 0 || s.score > 0)
      scored.sort((a, b) => b.score - a.score)
      return scored.slice(0, limit).map((s) => s.item)
    },
    async forget(id) {
      const scope = id.startsWith('user:') ? 'user' : 'project'
      const where = await fileOf(scope)
      if ('refused' in where) return false
      const file = where.file
      return withFileLock(file, async () => {
        const lines = await linesOf(file, 'Nothing was forgotten')
        const kept = lines.filter((line) => {
          const m = ITEM.exec(line)
          return !(m && itemId(scope, m[1]!) === id)
        })
        if (kept.length === lines.length) return false
        await writeFileAtomic(file, kept.join('\n'))
        return true
      })
    },
  }
}
