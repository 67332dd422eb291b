/**
 * The layering rule, checked on every file: the engine is pure (no electron, no node:*, no native modules, no
 * Node built-ins under their bare names either, nothing outside it but the shared leaves), and only src-main/electron/ and src-preload/index.ts import
 * electron. See docs/architecture.md.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '..')

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full))
    else if (/\.(ts|tsx|mts|cts)$/.test(name) && !name.endsWith('.d.ts')) out.push(full)
  }
  return out
}

/** Module specifiers of static imports, re-exports, dynamic imports and require calls. */
export function importsOf(source: string): string[] {
  const specs: string[] = []
  const patterns = [
    /^\s*(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) specs.push(m[1]!)
  return specs
}

/** Modules every layer may import, the engine included: each imports nothing, so it cannot carry I/O in. */
const SHARED_LEAVES = new Set(['src-preload/money', 'src-preload/limits', 'src-preload/tool-access', 'src-preload/duration', 'src-preload/names', 'src-preload/models'])

const NATIVE_OR_HOST = new Set(['electron', 'better-sqlite3', 'ws', '@anthropic-ai/sdk', 'chokidar'])
const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))

export function engineViolation(spec: string): string | null {
  if (spec.startsWith('node:') || nodeBuiltins.has(spec)) return 'imports a Node built-in'
  const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!
  if (NATIVE_OR_HOST.has(pkg)) return `imports ${pkg} (I/O or native)`
  return null
}

describe('layering', () => {
  it('keeps src-main/engine pure', () => {
    const problems: string[] = []
    for (const file of sourceFiles(join(root, 'src-main/engine'))) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        const why = engineViolation(spec)
        if (why) problems.push(`${relative(root, file)}: ${why} ("${spec}")`)
        if (spec.startsWith('.')) {
          const target = relative(root, join(file, '..', spec))
          if (!target.startsWith('src-main/engine') && !SHARED_LEAVES.has(target)) problems.push(`${relative(root, file)}: reaches outside the engine ("${spec}")`)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it('keeps the shared leaves free of imports', () => {
    for (const leaf of SHARED_LEAVES) expect(importsOf(readFileSync(join(root, `${leaf}.ts`), 'utf8')), leaf).toEqual([])
  })

  it('imports electron only in src-main/electron and the preload', () => {
    const problems: string[] = []
    const dirs = ['src-main', 'src-renderer', 'src-preload'].map((d) => join(root, d))
    for (const file of dirs.flatMap(sourceFiles)) {
      const rel = relative(root, file)
      if (rel.startsWith('src-main/electron/') || rel === 'src-preload/index.ts') continue
      if (importsOf(readFileSync(file, 'utf8')).some((s) => s === 'electron' || s.startsWith('electron/'))) problems.push(rel)
    }
    expect(problems).toEqual([])
  })

  it('keeps src-main/rpc transport-agnostic (no Node built-ins: I/O goes through node/ adapters)', () => {
    const problems: string[] = []
    for (const file of sourceFiles(join(root, 'src-main/rpc'))) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('node:') || nodeBuiltins.has(spec) || spec === 'electron') problems.push(`${relative(root, file)}: ${spec}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('keeps the renderer away from Node and main-process code', () => {
    const problems: string[] = []
    for (const file of sourceFiles(join(root, 'src-renderer'))) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('node:') || nodeBuiltins.has(spec)) problems.push(`${relative(root, file)}: ${spec}`)
        if (spec.includes('src-main/') || /^(\.\.\/)+src-main/.test(spec)) problems.push(`${relative(root, file)}: ${spec}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('detects the violations it is meant to catch', () => {
    // The rule itself must be able to fail: these are what it rejects.
    expect(engineViolation('node:fs')).not.toBeNull()
    expect(engineViolation('fs')).not.toBeNull()
    expect(engineViolation('electron')).not.toBeNull()
    expect(engineViolation('better-sqlite3')).not.toBeNull()
    expect(engineViolation('@anthropic-ai/sdk/streaming')).not.toBeNull()
    expect(engineViolation('zod')).toBeNull()
    expect(importsOf("import { app } from 'electron'\nconst x = require('node:fs')\nexport * from './a'")).toEqual(['electron', './a', 'node:fs'])
  })
})
