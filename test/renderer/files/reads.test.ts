/**
 * The Files view's reads overlap: a file clicked while the one clicked before is still being read, a project left
 * while its file is read. Under Node, with the contract's client replaced by one whose answers the test releases in
 * any order: what opens is always the file last picked, in the project shown.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { OpenedFileView } from '../../../src-preload/contract'

type Pending = { name: string; input: { projectId?: string; path?: string; sessionId?: string }; answer: (value: unknown) => void }
const pending: Pending[] = []

vi.mock('../../../src-renderer/platform/client', () => ({
  client: {
    request: (name: string, input: Pending['input']) => new Promise((resolve) => pending.push({ name, input, answer: (value) => resolve({ ok: true, value }) })),
    on: () => () => {},
  },
}))

const { openFile, startNewFile } = await import('../../../src-renderer/features/files/actions')
const { useFilesStore } = await import('../../../src-renderer/state/files')
const store = useFilesStore.getState

const file = (projectId: string, path: string, text = `${path} of ${projectId}`): OpenedFileView => ({ path, absPath: `/${projectId}/${path}`, text, exists: true, sha256: `sha-${text}` })

/** Answers the oldest pending request named `name` matching `input`. */
function answer(name: string, input: Pending['input'], value: unknown): void {
  const i = pending.findIndex((p) => p.name === name && Object.entries(input).every(([k, v]) => p.input[k as keyof Pending['input']] === v))
  if (i < 0) throw new Error(`no pending ${name} for ${JSON.stringify(input)}: ${JSON.stringify(pending.map((p) => [p.name, p.input]))}`)
  pending.splice(i, 1)[0]!.answer(value)
}
const flush = () => new Promise((r) => setTimeout(r, 0))

beforeEach(() => {
  pending.length = 0
  useFilesStore.setState({ projectId: null, listing: null, open: null, unsaved: {}, unapplied: null, openError: null, save: { kind: 'idle' } })
  store().projectShown('a')
})

describe('opening files', () => {
  it('opens the file clicked last when the one clicked before answers after it', async () => {
    void openFile('a', 'AGENTS.md')
    void openFile('a', 'CLAUDE.md')
    answer('files.read', { path: 'CLAUDE.md' }, file('a', 'CLAUDE.md'))
    await flush()
    answer('files.read', { path: 'AGENTS.md' }, file('a', 'AGENTS.md'))
    await flush()
    expect(store().open?.base.path).toBe('CLAUDE.md')
  })

  it('opens the file clicked after starting a new one when the start answers last', async () => {
    void startNewFile('a', 'AGENTS.md')
    void openFile('a', 'CLAUDE.md')
    answer('files.read', { path: 'CLAUDE.md' }, file('a', 'CLAUDE.md'))
    await flush()
    answer('files.read', { path: 'AGENTS.md' }, { ...file('a', 'AGENTS.md'), exists: false, startingText: '# AGENTS.md\n' })
    await flush()
    expect(store().open?.base.path).toBe('CLAUDE.md')
  })

  it("opens nothing of a project left while its file was being read", async () => {
    void openFile('a', 'AGENTS.md')
    store().projectShown('b')
    answer('files.read', { projectId: 'a' }, file('a', 'AGENTS.md'))
    await flush()
    expect(store().open).toBeNull()
  })
})
