/**
 * The built-in memory extension (issue 6 item 9): the same files the `remember` tool writes and the session block
 * shows — project memory `<root>/.loupe/memory.md`, user memory `<loupeHome>/memory.md` — one fact per list item.
 * Written against the `MemoryProvider` interface a project's own memory implements. No recall: the files are
 * already in the session block, frozen again at each checkpoint.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, realpath } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { MemoryItem, MemoryProvider } from '../../engine/compaction/extensions'
import { locate } from '../instructions/safe-read'
import { writeFileAtomic } from '../tools/atomic-write'
import { normaliseFact, PROJECT_MEMORY_PATH, USER_MEMORY_FILE } from '../tools/remember'

const ITEM = /^\s*[-*]\s+(.+?)\s*$/

function itemId(scope: 'project' | 'user', text: string): string {
  return `${scope}:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`
}

export function createFileMemory(root: string, loupeHome: string): MemoryProvider {
  /** The memory file of a scope, or null when the project's would resolve outside the project. */
  const fileOf = async (scope: 'project' | 'user'): Promise<string | null> => {
    if (scope === 'user') return join(loupeHome, USER_MEMORY_FILE)
    const realRoot = await realpath(root)
    const path = join(realRoot, PROJECT_MEMORY_PATH)
    const located = await locate(path, [realRoot])
    if (located.kind === 'file' || located.kind === 'missing') {
      // A missing file may still sit under a `.loupe` that links elsewhere.
      const parent = await locate(dirname(path), [realRoot])
      return parent.kind === 'outside' ? null : path
    }
    return null
  }
  const read = async (scope: 'project' | 'user'): Promise<{ file: string | null; lines: string[] }> => {
    const file = await fileOf(scope)
    if (file === null) return { file, lines: [] }
    const text = await readFile(file, 'utf8').catch(() => '')
    return { file, lines: text === '' ? [] : text.split('\n') }
  }
  const items = async (): Promise<MemoryItem[]> => {
    const out: MemoryItem[] = []
    for (const scope of ['project', 'user'] as const) {
      for (const line of (await read(scope)).lines) {
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
      const { file, lines } = await read(scope)
      if (file === null) throw new Error(`${PROJECT_MEMORY_PATH} resolves outside the project`)
      const body = lines.join('\n')
      await mkdir(dirname(file), { recursive: true })
      await writeFileAtomic(file, `${body}${body === '' || body.endsWith('\n') ? '' : '\n'}- ${text}\n`)
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
      const { file, lines } = await read(scope)
      if (file === null) return false
      const kept = lines.filter((line) => {
        const m = ITEM.exec(line)
        return !(m && itemId(scope, m[1]!) === id)
      })
      if (kept.length === lines.length) return false
      await writeFileAtomic(file, kept.join('\n'))
      return true
    },
  }
}
