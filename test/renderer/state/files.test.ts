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
    store().saveFinished(file('AGENTS.md', 'agents\nmine'), { kind: 'idle' })
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
})
