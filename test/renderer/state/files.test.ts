/**
 * The Files view's drafts: a file left with unsaved text for another keeps it, comes back with it, and as a merge when
 * the disk changed meanwhile; a draft reverted or saved is not kept; another project's files keep theirs too.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { OpenedFileView } from '../../../src-preload/contract'
import { unsavedCount, useFilesStore } from '../../../src-renderer/state/files'

const file = (path: string, text: string, sha256 = `sha-${text}`): OpenedFileView => ({ path, absPath: `/p/${path}`, text, exists: true, sha256 })
const store = useFilesStore.getState

describe('unsaved drafts', () => {
  beforeEach(() => useFilesStore.setState({ projectId: 'prj_a', open: null, unsaved: {} }))

  it('keeps a draft when another file is opened, and gives it back with its file', () => {
    store().fileOpened('prj_a', file('CLAUDE.md', 'rules'))
    store().draftEdited('rules\nmine')
    store().fileOpened('prj_a', file('AGENTS.md', 'agents'))
    expect(store().open?.draft).toBe('agents')
    expect(unsavedCount(store())).toBe(1)

    store().fileOpened('prj_a', file('CLAUDE.md', 'rules'))
    expect(store().open).toMatchObject({ draft: 'rules\nmine', disk: null, base: { text: 'rules' } })
    expect(store().unsaved).toEqual({})
    expect(unsavedCount(store())).toBe(1)
  })

  it('offers a merge when the file changed on disk while its draft waited', () => {
    store().fileOpened('prj_a', file('CLAUDE.md', 'rules'))
    store().draftEdited('rules\nmine')
    store().fileOpened('prj_a', file('AGENTS.md', 'agents'))
    store().fileOpened('prj_a', file('CLAUDE.md', 'theirs'))
    expect(store().open).toMatchObject({ draft: 'rules\nmine', base: { text: 'rules' }, disk: { text: 'theirs', sha256: 'sha-theirs', exists: true } })
  })

  it('keeps nothing for a draft reverted to the file, and counts nothing once saved', () => {
    store().fileOpened('prj_a', file('CLAUDE.md', 'rules'))
    store().draftEdited('rules\nmine')
    store().draftEdited('rules')
    store().fileOpened('prj_a', file('AGENTS.md', 'agents'))
    expect(store().unsaved).toEqual({})

    store().draftEdited('agents\nmine')
    expect(unsavedCount(store())).toBe(1)
    store().saveFinished('/p/AGENTS.md', file('AGENTS.md', 'agents\nmine'), { kind: 'idle' })
    expect(unsavedCount(store())).toBe(0)
  })

  it("keeps the open draft when another project's files are shown", () => {
    store().fileOpened('prj_a', file('CLAUDE.md', 'rules'))
    store().draftEdited('rules\nmine')
    store().projectShown('prj_b')
    expect(store().open).toBeNull()
    expect(unsavedCount(store())).toBe(1)
    store().projectShown('prj_a')
    store().fileOpened('prj_a', file('CLAUDE.md', 'rules'))
    expect(store().open?.draft).toBe('rules\nmine')
  })

  it('a save that finishes after its file was left updates that draft, not the file open now', () => {
    store().fileOpened('prj_a', file('CLAUDE.md', 'rules'))
    store().draftEdited('rules\nmine')
    store().saveStarted()
    store().fileOpened('prj_a', file('AGENTS.md', 'agents'))
    store().saveFinished('/p/CLAUDE.md', file('CLAUDE.md', 'rules\nmine'), { kind: 'idle' })
    expect(store().open).toMatchObject({ base: { path: 'AGENTS.md', text: 'agents' }, draft: 'agents' })
    expect(store().unsaved).toEqual({})
    // A refused save of a left file leaves its draft: opened again, the disk's version makes it the merge.
    store().fileOpened('prj_a', file('CLAUDE.md', 'rules\nmine'))
    store().draftEdited('rules\nmine\nmore')
    store().fileOpened('prj_a', file('AGENTS.md', 'agents'))
    store().conflictFound('/p/CLAUDE.md', { text: 'theirs', sha256: 'sha-theirs', exists: true }, '/data/mine')
    expect(store().open?.disk).toBeNull()
    store().fileOpened('prj_a', file('CLAUDE.md', 'theirs'))
    expect(store().open).toMatchObject({ draft: 'rules\nmine\nmore', disk: { text: 'theirs' } })
  })

  it('a file every project shares (in ~/.loupe) has one draft, whichever project opens it', () => {
    const global = (text: string): OpenedFileView => ({ path: '~/.loupe/AGENTS.md', absPath: '/home/u/.loupe/AGENTS.md', text, exists: true, sha256: `sha-${text}` })
    store().fileOpened('prj_a', global('all'))
    store().draftEdited('all\nmine')
    store().projectShown('prj_b')
    store().fileOpened('prj_b', global('all'))
    expect(store().open).toMatchObject({ projectId: 'prj_b', draft: 'all\nmine' })
    expect(unsavedCount(store())).toBe(1)
  })

  it('a draft given up is gone', () => {
    store().fileOpened('prj_a', file('docs/x.md', 'x'))
    store().draftEdited('x\nmine')
    store().fileOpened('prj_a', file('CLAUDE.md', 'rules'))
    store().draftDiscarded('/p/docs/x.md')
    expect(unsavedCount(store())).toBe(0)
  })

  it('keeps the merge being written when the disk changes again, and as the draft when the file is left', () => {
    store().fileOpened('prj_a', file('CLAUDE.md', 'rules'))
    store().draftEdited('rules\nmine')
    store().diskChanged({ text: 'theirs 1', sha256: 'sha-1', exists: true })
    store().mergeEdited('theirs 1\nmine')
    store().diskChanged({ text: 'theirs 2', sha256: 'sha-2', exists: true })
    expect(store().open).toMatchObject({ merging: 'theirs 1\nmine', disk: { text: 'theirs 2' } })
    store().fileOpened('prj_a', file('AGENTS.md', 'agents'))
    expect(store().unsaved['/p/CLAUDE.md']?.draft).toBe('theirs 1\nmine')
    store().fileOpened('prj_a', file('CLAUDE.md', 'theirs 2'))
    store().mergeAccepted('theirs 2\nmine')
    expect(store().open).toMatchObject({ draft: 'theirs 2\nmine', disk: null, base: { text: 'theirs 2' } })
    expect(store().open?.merging).toBeUndefined()
  })
})

describe('the note of a file saved for later', () => {
  beforeEach(() => useFilesStore.setState({ projectId: 'prj_a', open: null, unsaved: {}, save: { kind: 'idle' }, unapplied: null }))

  const saved = (waiting?: { sessionId: string; path: string }) =>
    store().saveFinished('/p/CLAUDE.md', file('CLAUDE.md', 'new'), { kind: 'saved', applied: 'later', message: 'Saved CLAUDE.md. The session keeps sending the old text until its next compaction', backupPath: null, ...(waiting ? { waiting } : {}) })

  it('goes once the session sends the file (files.unapplied no longer lists it), and stays while it is listed', () => {
    saved({ sessionId: 'ses_a', path: 'CLAUDE.md' })
    store().unappliedFound({ sessionId: 'ses_a', paths: ['CLAUDE.md'], price: null })
    expect(store().save.kind).toBe('saved')
    // Another session's list says nothing of this session.
    store().unappliedFound({ sessionId: 'ses_b', paths: [], price: null })
    expect(store().save.kind).toBe('saved')
    // An answer that failed says nothing of it.
    store().unappliedFound(null)
    expect(store().save.kind).toBe('saved')
    // The compaction applied it: the session's answer lists nothing.
    store().unappliedFound(null, 'ses_a')
    expect(store().save).toEqual({ kind: 'idle' })
  })

  it('stays when it waits for nothing (a file sent after the breakpoints)', () => {
    saved()
    store().unappliedFound({ sessionId: 'ses_a', paths: [], price: null })
    expect(store().save.kind).toBe('saved')
  })
})
