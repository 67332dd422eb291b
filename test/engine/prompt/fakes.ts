/**
 * In-memory fakes for prompt-engine tests: a deterministic hasher and a small builder of gathered contexts, so the
 * engine runs under plain Node without a disk.
 */
import type { Hasher } from '../../../src-main/engine/ports'
import type {
  GatheredContext,
  GatheredFile,
  GatheredInstruction,
  ImportLink,
  InstructionTier,
  SessionFacts,
} from '../../../src-main/engine/prompt'
import type { HistoryMessage, PromptInput, PromptSettings } from '../../../src-main/engine/prompt'
import { freezeSession } from '../../../src-main/engine/prompt'
import type { WireTool } from '../../../src-main/engine/model/wire'

/** FNV-1a over the text, widened to 64 hex digits. Not sha256, but deterministic and sensitive to every char. */
export function fakeHasher(): Hasher & { calls: number } {
  const hasher = {
    calls: 0,
    sha256Hex(data: string): string {
      hasher.calls++
      let out = ''
      for (let seed = 0; seed < 8; seed++) {
        let h = (0x811c9dc5 ^ seed) >>> 0
        for (let i = 0; i < data.length; i++) {
          h ^= data.charCodeAt(i)
          h = Math.imul(h, 0x01000193) >>> 0
        }
        out += h.toString(16).padStart(8, '0')
      }
      return out
    },
  }
  return hasher
}

export interface FakeFile {
  readonly text?: string
  readonly skipped?: GatheredFile['read'] & { ok: false }
  readonly imports?: ReadonlyArray<ImportLink>
}

/** Builds a gathered context from `path → file` (ids are `/p/<path>`) and a list of instructions. */
export function gathered(spec: {
  files: Record<string, FakeFile>
  instructions?: ReadonlyArray<[InstructionTier, string]>
  memory?: { project?: string; user?: string }
  skills?: ReadonlyArray<[string, string]>
  facts?: Partial<SessionFacts>
  rootFiles?: ReadonlyArray<string>
}): GatheredContext {
  const files: Record<string, GatheredFile> = {}
  for (const [path, f] of Object.entries(spec.files)) {
    const id = `/p/${path}`
    files[id] = {
      id,
      path,
      read: f.skipped ?? { ok: true, text: f.text ?? '', bytes: (f.text ?? '').length, replacedInvalidUtf8: false },
      imports: f.imports ?? [],
    }
  }
  const instructions: GatheredInstruction[] = (spec.instructions ?? []).map(([tier, path]) => ({ tier, fileId: `/p/${path}`, path }))
  return {
    root: '/p',
    instructions,
    files,
    memory: {
      project: spec.memory?.project === undefined ? null : `/p/${spec.memory.project}`,
      user: spec.memory?.user === undefined ? null : `/p/${spec.memory.user}`,
    },
    skills: (spec.skills ?? []).map(([dirName, path]) => ({ dirName, fileId: `/p/${path}` })),
    facts: {
      projectName: 'p',
      root: '/p',
      listing: [{ name: 'src', isDirectory: true }, { name: 'package.json', isDirectory: false }],
      listingTotal: 2,
      git: { branch: 'main', head: 'a'.repeat(40) },
      date: '2026-11-29',
      ...spec.facts,
    },
    build: { rootFiles: spec.rootFiles ?? ['package.json'], packageJson: { testScript: 'vitest run', packageManager: null } },
    notes: [],
  }
}

export const link = (ref: string, path: string): ImportLink => ({ ref, status: 'file', targetId: `/p/${path}` })

export const SETTINGS: PromptSettings = {
  features: { sandbox: false, hooks: false, todo: true, skills: true },
  staticCacheTtl1h: true,
}

export const TOOLS: ReadonlyArray<WireTool> = [
  { name: 'read', description: 'Read a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'bash', description: 'Run a command.', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
  { name: 'edit', description: 'Edit a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
]

export function user(text: string, id: string): HistoryMessage {
  return { message: { role: 'user', content: [{ type: 'text', text }] }, provenance: { entryIds: [id], kind: 'user_input' } }
}

export function assistantToolUse(id: string, toolId: string, path: string): HistoryMessage {
  return {
    message: {
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading ${path}.` },
        { type: 'tool_use', id: toolId, name: 'read', input: { path } },
      ],
    },
    provenance: { entryIds: [id], kind: 'assistant' },
  }
}

export function toolResult(id: string, toolId: string, content: string): HistoryMessage {
  return {
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content }] },
    provenance: { entryIds: [id], kind: 'tool_results' },
  }
}

/** A complete input for a small project, ready to build. */
export function baseInput(overrides: Partial<PromptInput> = {}): PromptInput {
  const g = gathered({
    files: { 'AGENTS.md': { text: '# Agents\n\nRun `npm test` before you finish.' }, '.loupe/memory.md': { text: '- The user prefers tabs.' } },
    instructions: [['project', 'AGENTS.md']],
    memory: { project: '.loupe/memory.md' },
  })
  const frozen = freezeSession(g, { contextWindowTokens: 200_000, skills: true })
  return {
    model: 'claude-sonnet-4-6',
    maxTokens: 8000,
    settings: SETTINGS,
    tools: TOOLS,
    project: frozen.project,
    session: frozen.session,
    context: frozen.context,
    history: [user('Fix the failing test.', 'e1')],
    previousTailIndex: null,
    hasher: fakeHasher(),
    ...overrides,
  }
}
