/**
 * Loading a project's extensions (docs/compaction.md "Context edits and extension points"): a name in
 * `.loupe/config.toml` is a built-in, a path is a local module inside the project that runs only if the user trusted
 * it (trust.ts). Every call of a user's module gets a deadline; a module that cannot be loaded, is not trusted, or
 * does not implement its interface is replaced by the default, and the reason is returned as a note for the user to
 * see.
 */
import { realpath } from 'node:fs/promises'
import { describeReadError, readRegularFile } from '../fs/regular-file'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  EXTENSION_DEADLINE_MS,
  SECTION_DEADLINE_MS,
  type Compactor,
  type ContextBuilder,
  type ContextSectionProvider,
  type MemoryProvider,
} from '../../engine/compaction/extensions'
import { trimOldTools } from '../../engine/compaction/trim'
import { locate } from '../instructions/safe-read'
import type { ExtensionSpecs } from './config'
import { createFileMemory } from './memory-file'
import { isTrusted, sha256OfBytes } from './trust'

/** A compactor makes model calls, each with its own timeouts; its own work around them gets this long in all. */
export const COMPACTOR_DEADLINE_MS = 10 * 60_000

export interface LoadedExtensions {
  readonly contextBuilder: ContextBuilder
  /** null: the built-in compactor. */
  readonly compactor: Compactor | null
  readonly memory: MemoryProvider
  readonly sections: ReadonlyArray<ContextSectionProvider>
  /** Why a configured extension is not in use, for the user. */
  readonly notes: ReadonlyArray<string>
}

export function withDeadline<T>(work: Promise<T> | T, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)
  })
  return Promise.race([Promise.resolve(work), deadline]).finally(() => clearTimeout(timer))
}

function guardContext(b: ContextBuilder): ContextBuilder {
  return { name: b.name, edits: (input, ctx) => withDeadline(b.edits(input, ctx), EXTENSION_DEADLINE_MS, `the context extension ${b.name}`) }
}

function guardCompactor(c: Compactor): Compactor {
  return { name: c.name, summarise: (input, ctx) => withDeadline(c.summarise(input, ctx), COMPACTOR_DEADLINE_MS, `the compactor ${c.name}`) }
}

/** A memory extension whose calls fall back to the built-in file memory when they fail or time out. */
function guardMemory(m: MemoryProvider, fallback: MemoryProvider, onFailure: (message: string) => void): MemoryProvider {
  const run = async <T>(what: string, call: () => Promise<T>, backup: () => Promise<T>): Promise<T> => {
    try {
      return await withDeadline(call(), EXTENSION_DEADLINE_MS, `the memory extension ${m.name} (${what})`)
    } catch (err) {
      onFailure(`The memory extension ${m.name} failed (${err instanceof Error ? err.message : String(err)}); the file memory was used instead.`)
      return backup()
    }
  }
  return {
    name: m.name,
    save: (fact, scope, ctx) => run('save', () => m.save(fact, scope, ctx), () => fallback.save(fact, scope, ctx)),
    search: (q, limit, ctx) => run('search', () => m.search(q, limit, ctx), () => fallback.search(q, limit, ctx)),
    forget: (id, ctx) => run('forget', () => m.forget(id, ctx), () => fallback.forget(id, ctx)),
    ...(m.recall ? { recall: (input, ctx) => run('recall', () => m.recall!(input, ctx), async () => null) } : {}),
  }
}

function guardSection(s: ContextSectionProvider): ContextSectionProvider {
  return { name: s.name, kind: s.kind, section: (input, ctx) => withDeadline(s.section(input, ctx), SECTION_DEADLINE_MS, `the context section ${s.name}`) }
}

type Role = 'context' | 'compactor' | 'memory' | 'section'

function pick(mod: Record<string, unknown>, role: Role): unknown {
  const root = (mod.default ?? mod) as Record<string, unknown>
  if (root !== null && typeof root === 'object' && role in root) return root[role]
  return root
}

function implementsRole(value: unknown, role: Role): boolean {
  if (value === null || typeof value !== 'object') return false
  const v = value as Record<string, unknown>
  if (typeof v.name !== 'string') return false
  switch (role) {
    case 'context':
      return typeof v.edits === 'function'
    case 'compactor':
      return typeof v.summarise === 'function'
    case 'memory':
      return typeof v.save === 'function' && typeof v.search === 'function' && typeof v.forget === 'function'
    case 'section':
      return typeof v.section === 'function' && (v.kind === 'state' || v.kind === 'render')
  }
}

async function loadModule(root: string, spec: string, role: Role, loupeHome: string, notes: string[]): Promise<unknown | null> {
  let realRoot: string
  try {
    realRoot = await realpath(root)
  } catch {
    return null
  }
  const located = await locate(resolve(realRoot, spec), [realRoot])
  if (located.kind !== 'file') {
    notes.push(`The ${role} extension ${spec} was not loaded: ${located.kind === 'outside' ? 'it is outside the project' : located.kind === 'missing' ? 'no such file' : 'it is not a readable file'}. The default is used.`)
    return null
  }
  let bytes: Buffer
  try {
    // Located as a file a moment ago; read as one (a FIFO swapped in since must not block the pass).
    bytes = await readRegularFile(located.realPath, { maxBytes: 4 * 1024 * 1024 })
  } catch (err) {
    notes.push(`The ${role} extension ${spec} was not loaded: ${describeReadError(spec, err)}. The default is used.`)
    return null
  }
  const hash = sha256OfBytes(bytes)
  if (!(await isTrusted(loupeHome, realRoot, spec, hash))) {
    notes.push(`The ${role} extension ${spec} is not trusted for this project (or changed since it was trusted). The default is used until you trust it.`)
    return null
  }
  try {
    const mod = (await import(`${pathToFileURL(located.realPath).href}?sha256=${hash}`)) as Record<string, unknown>
    const value = pick(mod, role)
    if (!implementsRole(value, role)) {
      notes.push(`The ${role} extension ${spec} does not implement the ${role} interface (docs/compaction.md). The default is used.`)
      return null
    }
    return value
  } catch (err) {
    notes.push(`The ${role} extension ${spec} failed to load (${err instanceof Error ? err.message : String(err)}). The default is used.`)
    return null
  }
}

const BUILT_IN_CONTEXT = new Set(['trim-old-tools', 'default'])
const BUILT_IN_COMPACTOR = new Set(['default'])
const BUILT_IN_MEMORY = new Set(['file', 'default'])

export async function loadExtensions(
  root: string,
  specs: ExtensionSpecs,
  options: { readonly loupeHome: string; readonly onMemoryFailure?: (message: string) => void },
): Promise<LoadedExtensions> {
  const notes: string[] = []
  const fileMemory = createFileMemory(root, options.loupeHome)
  const isPath = (s: string) => s.startsWith('.') || s.includes('/')
  const named = (spec: string | null, builtIns: ReadonlySet<string>, role: Role): string | null => {
    if (spec === null || builtIns.has(spec)) return null
    if (!isPath(spec)) {
      notes.push(`There is no built-in ${role} extension named ${spec}. The default is used.`)
      return null
    }
    return spec
  }
  const contextSpec = named(specs.context, BUILT_IN_CONTEXT, 'context')
  const compactorSpec = named(specs.compactor, BUILT_IN_COMPACTOR, 'compactor')
  const memorySpec = named(specs.memory, BUILT_IN_MEMORY, 'memory')
  const context = contextSpec ? ((await loadModule(root, contextSpec, 'context', options.loupeHome, notes)) as ContextBuilder | null) : null
  const compactor = compactorSpec ? ((await loadModule(root, compactorSpec, 'compactor', options.loupeHome, notes)) as Compactor | null) : null
  const memory = memorySpec ? ((await loadModule(root, memorySpec, 'memory', options.loupeHome, notes)) as MemoryProvider | null) : null
  const sections: ContextSectionProvider[] = []
  for (const spec of specs.sections) {
    const s = (await loadModule(root, spec, 'section', options.loupeHome, notes)) as ContextSectionProvider | null
    if (s) sections.push(guardSection(s))
  }
  return {
    contextBuilder: context ? guardContext(context) : trimOldTools,
    compactor: compactor ? guardCompactor(compactor) : null,
    memory: memory ? guardMemory(memory, fileMemory, options.onMemoryFailure ?? (() => {})) : fileMemory,
    sections,
    notes,
  }
}
