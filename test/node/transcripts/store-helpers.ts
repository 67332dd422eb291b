/** Shared by the store-import tests: a temporary store, the copied fixtures on disk, an independent count. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openStore, type Store } from '../../../src-main/node/store'

export const FIXTURES = fileURLToPath(new URL('../../fixtures/real/', import.meta.url))

export interface TempStore {
  readonly store: Store
  readonly dir: string
  dispose(): void
}

export function tempStore(): TempStore {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-cc-import-'))
  const store = openStore(join(dir, 'loupe.db'))
  return {
    store,
    dir,
    dispose: () => {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface FixtureFile {
  readonly name: string
  readonly path: string
  readonly subagentPaths: ReadonlyArray<string>
}

/** Every copied session file with its 2.x subagent files (never ../shared: test/fixtures/real/ only). */
export function fixtureFiles(): FixtureFile[] {
  const out: FixtureFile[] = []
  for (const source of ['spotter', 'claude-code-viewer']) {
    for (const name of readdirSync(join(FIXTURES, source)).sort()) {
      if (!name.endsWith('.jsonl')) continue
      const sub = join(FIXTURES, source, name.replace(/\.jsonl$/, ''), 'subagents')
      const subagentPaths = existsSync(sub) ? readdirSync(sub).sort().map((f) => join(sub, f)) : []
      out.push({ name: `${source}/${name}`, path: join(FIXTURES, source, name), subagentPaths })
    }
  }
  return out
}

export interface Count {
  requests: number
  input: number
  read: number
  write: number
  output: number
}

/**
 * Requests and usage of a file counted without the importer: one JSON.parse per line, assistant lines grouped by
 * `requestId` (else `message.id`), synthetic notices left out, the largest output seen per request.
 */
export function independentCount(path: string): Count {
  const byRequest = new Map<string, { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; output_tokens: number }>()
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const o = JSON.parse(line) as { type?: string; requestId?: string; message?: { id?: string; model?: string; usage?: Record<string, number> } }
    if (o.type !== 'assistant' || o.message?.model === '<synthetic>' || !o.message?.usage) continue
    const key = o.requestId ?? o.message.id ?? ''
    const u = o.message.usage
    const known = byRequest.get(key)
    byRequest.set(key, {
      input_tokens: u.input_tokens ?? 0,
      cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
      cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
      output_tokens: Math.max(known?.output_tokens ?? 0, u.output_tokens ?? 0),
    })
  }
  const c: Count = { requests: 0, input: 0, read: 0, write: 0, output: 0 }
  for (const u of byRequest.values()) {
    c.requests++
    c.input += u.input_tokens
    c.read += u.cache_read_input_tokens
    c.write += u.cache_creation_input_tokens
    c.output += u.output_tokens
  }
  return c
}

export function add(a: Count, b: Count): Count {
  return { requests: a.requests + b.requests, input: a.input + b.input, read: a.read + b.read, write: a.write + b.write, output: a.output + b.output }
}

/** The compact_boundary lines of a file, with Claude Code's own pre-token figure. */
export function compactBoundaries(path: string): Array<{ preTokens: number | null; trigger: string | null }> {
  const out: Array<{ preTokens: number | null; trigger: string | null }> = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('compact_boundary')) continue
    const o = JSON.parse(line) as { type?: string; subtype?: string; compactMetadata?: { preTokens?: number; trigger?: string } }
    if (o.type === 'system' && o.subtype === 'compact_boundary') out.push({ preTokens: o.compactMetadata?.preTokens ?? null, trigger: o.compactMetadata?.trigger ?? null })
  }
  return out
}
