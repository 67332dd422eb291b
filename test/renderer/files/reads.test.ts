/**
 * The Files view's reads overlap: a file clicked while the one clicked before is still being read, a project left
 * while its file is read. Under Node, with the contract's client replaced by one whose answers the test releases in
 * any order: what opens is always the file last picked, in the project shown.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { answerHeld, held, settle } from '../../support/held-client'
import type { OpenedFileView } from '../../../src-preload/contract'


vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)

const { checkDisk, checkUnapplied, loadUnapplied, openFile, saveOpenFile, startNewFile } = await import('../../../src-renderer/features/files/actions')
const { useFilesStore } = await import('../../../src-renderer/state/files')
const store = useFilesStore.getState

const file = (projectId: string, path: string, text = `${path} of ${projectId}`): OpenedFileView => ({ path, absPath: `/${projectId}/${path}`, text, exists: true, sha256: `sha-${text}` })

const answer = answerHeld

beforeEach(() => {
  held.length = 0
  useFilesStore.setState({ projectId: null, listing: null, open: null, unsaved: {}, unapplied: null, openError: null, save: { kind: 'idle' } })
  store().projectShown('a')
})

describe('opening files', () => {
  it('opens the file clicked last when the one clicked before answers after it', async () => {
    void openFile('a', 'AGENTS.md')
    void openFile('a', 'CLAUDE.md')
    answer('files.read', { path: 'CLAUDE.md' }, file('a', 'CLAUDE.md'))
    await settle()
    answer('files.read', { path: 'AGENTS.md' }, file('a', 'AGENTS.md'))
    await settle()
    expect(store().open?.base.path).toBe('CLAUDE.md')
  })

  it('opens the file clicked after starting a new one when the start answers last', async () => {
    void startNewFile('a', 'AGENTS.md')
    void openFile('a', 'CLAUDE.md')
    answer('files.read', { path: 'CLAUDE.md' }, file('a', 'CLAUDE.md'))
    await settle()
    answer('files.read', { path: 'AGENTS.md' }, { ...file('a', 'AGENTS.md'), exists: false, startingText: '# AGENTS.md\n' })
    await settle()
    expect(store().open?.base.path).toBe('CLAUDE.md')
  })

  it("opens nothing of a project left while its file was being read", async () => {
    void openFile('a', 'AGENTS.md')
    store().projectShown('b')
    answer('files.read', { projectId: 'a' }, file('a', 'AGENTS.md'))
    await settle()
    expect(store().open).toBeNull()
  })
})

describe('looking at the open file on disk', () => {
  it("does not put a project's file into the file of the same name opened in another project meanwhile", async () => {
    store().fileOpened('a', file('a', 'AGENTS.md'))
    void checkDisk()
    store().projectShown('b')
    void openFile('b', 'AGENTS.md')
    answer('files.read', { projectId: 'b' }, file('b', 'AGENTS.md'))
    await settle()
    // Project a's AGENTS.md changed on disk meanwhile; that read answers now.
    answer('files.read', { projectId: 'a' }, file('a', 'AGENTS.md', 'changed in a'))
    await settle()
    expect(store().open?.base.absPath).toBe('/b/AGENTS.md')
    expect(store().open?.draft).toBe('AGENTS.md of b')
  })

  it('does not bring back the text read before a save that answered first', async () => {
    store().fileOpened('a', file('a', 'AGENTS.md', 'before'))
    void checkDisk()
    store().draftEdited('after')
    const saved = saveOpenFile(null, 'now')
    answer('files.save', {}, { status: 'saved', path: 'AGENTS.md', sha256: 'sha-after', backupPath: null, charsBefore: 6, charsAfter: 5 })
    await saved
    answer('files.read', { projectId: 'a' }, file('a', 'AGENTS.md', 'before'))
    await settle()
    expect(store().open?.draft).toBe('after')
    expect(store().open?.base.sha256).toBe('sha-after')
  })
})

describe('the files a session does not send yet', () => {
  const price = { movedBlock: { path: 'system[1]', label: 'system[1] · session block' }, rebilledTokens: 1, nextPassUsd: 0.02, withoutEditUsd: 0.01, deltaUsd: 0.01, cacheWarm: true, addedTokens: 1, exact: true, label: 'moves system[1]' }

  it("keeps the list of the session picked when a look for the one left, made before, answers after it", async () => {
    // The 5 s look for session s1's list is on its way when the user picks session s2, whose list is read.
    void checkUnapplied('s1', 'a')
    const loading = loadUnapplied('s2', 'a')
    answer('files.unapplied', { sessionId: 's2' }, { paths: ['CLAUDE.md'] })
    await settle()
    answer('files.read', { path: 'CLAUDE.md' }, file('a', 'CLAUDE.md'))
    await settle()
    answer('session.cacheSummary', { sessionId: 's2' }, {})
    await settle()
    answer('cache.priceEdit', { sessionId: 's2' }, price)
    await loading
    expect(store().unapplied).toEqual({ sessionId: 's2', paths: ['CLAUDE.md'], price })
    answer('files.unapplied', { sessionId: 's1' }, { paths: ['AGENTS.md'] })
    await settle()
    // Any read of s1's list the late look would start answers too.
    while (held.some((r) => r.input.sessionId === 's1')) {
      answer('files.unapplied', { sessionId: 's1' }, { paths: ['AGENTS.md'] })
      await settle()
    }
    expect(store().unapplied?.sessionId).toBe('s2')
  })

  it('keeps how each file differs, for the bar to say which one was only cut otherwise', async () => {
    const changes = [
      { path: 'CLAUDE.md', kind: 'changed' },
      { path: 'AGENTS.md', kind: 'cut_shorter' },
    ]
    const loading = loadUnapplied('s1', 'a')
    answer('files.unapplied', { sessionId: 's1' }, { paths: ['CLAUDE.md', 'AGENTS.md'], changes })
    await settle()
    answer('files.read', { path: 'CLAUDE.md' }, file('a', 'CLAUDE.md'))
    answer('files.read', { path: 'AGENTS.md' }, file('a', 'AGENTS.md'))
    await settle()
    answer('session.cacheSummary', { sessionId: 's1' }, {})
    await settle()
    answer('cache.priceEdit', { sessionId: 's1' }, price)
    await loading
    expect(store().unapplied).toEqual({ sessionId: 's1', paths: ['CLAUDE.md', 'AGENTS.md'], changes, price })
  })
})
