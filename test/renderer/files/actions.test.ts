/**
 * The Files view's requests under Node, with the contract's client replaced: pricing always ends (with a price or an
 * error, never a "pricing…" left for good), a save whose apply finds the session busy is a warning with the apply
 * kept for later, and a file deleted on disk while open keeps the user's text, to be saved back.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { FilesListingView, OpenedFileView } from '../../../src-preload/contract'

type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } }
const answers = new Map<string, (input: unknown) => Answer | Promise<Answer>>()
const asked: Array<{ name: string; input: unknown }> = []
const listeners = new Map<string, Set<(payload: unknown) => void>>()
const emit = (name: string, payload: unknown) => listeners.get(name)?.forEach((l) => l(payload))
vi.mock('../../../src-renderer/platform/client', () => ({
  client: {
    request: (name: string, input: unknown) => {
      asked.push({ name, input })
      const answer = answers.get(name)
      return Promise.resolve(answer ? answer(input) : { ok: false, error: { code: 'internal', message: `no answer for ${name}` } })
    },
    on: (name: string, listener: (payload: unknown) => void) => {
      const set = listeners.get(name) ?? new Set()
      set.add(listener)
      listeners.set(name, set)
      return () => set.delete(listener)
    },
  },
}))

const { afterBreakpoints, applyUnappliedNow, checkDisk, checkUnapplied, draftsOffTree, editKind, loadUnapplied, onUnappliedMayChange, priceDraft, saveOpenFile, startNewFile } = await import('../../../src-renderer/features/files/actions')
const { unsavedCount, useFilesStore } = await import('../../../src-renderer/state/files')
const store = useFilesStore.getState

const file = (text: string): OpenedFileView => ({ path: 'docs/extra.md', absPath: '/p/docs/extra.md', text, exists: true, sha256: `sha-${text}` })

beforeEach(() => {
  answers.clear()
  asked.length = 0
  useFilesStore.setState({ projectId: 'prj_a', open: null, unsaved: {}, unapplied: null, save: { kind: 'idle' } })
  store().fileOpened('prj_a', file('rules'))
})
afterEach(() => vi.useRealTimers())

describe('pricing', () => {
  it('says it failed when no answer comes, instead of pricing for good', async () => {
    vi.useFakeTimers()
    answers.set('session.cacheSummary', () => new Promise(() => {}))
    const pricing = priceDraft('ses_a', 'docs/extra.md', 'instruction_file', 'rules', 'rules!', 1000)
    expect(store().price.loading).toBe(true)
    await vi.advanceTimersByTimeAsync(1001)
    await pricing
    expect(store().price).toMatchObject({ loading: false, error: expect.stringContaining('no answer in 1 s') })
  })

  it("drops a failure for a draft that is no longer the one priced", () => {
    store().priceLoading('newer')
    store().priceFailed('older', 'Could not price the edit: gone')
    expect(store().price).toMatchObject({ loading: true, error: null, forDraft: 'newer' })
  })
})

describe('saving and applying now', () => {
  it('says the next pass writes everything from the session block on again, at the price shown for the draft', async () => {
    const shown = { movedBlock: { path: 'system[1]', label: 'system[1] · session block' }, rebilledTokens: 3828, nextPassUsd: 0.0152, withoutEditUsd: 0.0019, deltaUsd: 0.0133, cacheWarm: true, addedTokens: 16, exact: true, label: 'moves system[1]' }
    store().draftEdited('rules, now')
    store().priceLoading('rules, now')
    store().priceLoaded('rules, now', shown, null)
    answers.set('files.save', () => ({ ok: true, value: { status: 'saved', path: 'docs/extra.md', sha256: 'sha-now', backupPath: null, charsBefore: 5, charsAfter: 10 } }))
    answers.set('files.apply', () => ({ ok: true, value: { applied: true, entryId: 'ent_1', message: 'applied now' } }))
    answers.set('files.unapplied', () => ({ ok: true, value: { paths: [] } }))
    await saveOpenFile('ses_a', 'now')
    expect(store().save).toMatchObject({
      kind: 'saved',
      applied: 'now',
      message: 'Saved docs/extra.md and applied it now: the next pass sends it, and writes the session block and everything after it again (+$0.0133 · re-bills 3,828 tokens).',
    })
  })
})

describe('saving while a turn runs', () => {
  it('warns that the edit is not applied, and applies it once asked when the session is idle', async () => {
    store().draftEdited('rules, edited')
    answers.set('files.save', () => ({ ok: true, value: { status: 'saved', path: 'docs/extra.md', sha256: 'sha-new', backupPath: null, charsBefore: 5, charsAfter: 13 } }))
    answers.set('files.apply', () => ({ ok: false, error: { code: 'busy', message: 'A turn or a compaction is running' } }))
    await saveOpenFile('ses_a', 'now')
    expect(store().save).toMatchObject({ kind: 'saved', warning: true, message: expect.stringContaining('not applied yet') })
    expect(store().unapplied).toEqual({ sessionId: 'ses_a', paths: ['docs/extra.md'], price: null })

    answers.set('files.apply', () => ({ ok: true, value: { applied: true, entryId: 'ent_1', message: 'applied now' } }))
    answers.set('files.unapplied', () => ({ ok: true, value: { paths: [] } }))
    await applyUnappliedNow('prj_a')
    expect(asked.filter((a) => a.name === 'files.apply').at(-1)?.input).toEqual({ sessionId: 'ses_a', paths: ['docs/extra.md'] })
    expect(store().unapplied).toBeNull()
    expect(store().save).toMatchObject({ kind: 'saved', applied: 'now' })
    expect(store().save).not.toHaveProperty('warning')
  })
})

describe('files the session does not send yet', () => {
  const price = { movedBlock: { path: 'system[1]', label: 'system[1] · session block' }, rebilledTokens: 1234, nextPassUsd: 0.02, withoutEditUsd: 0.01, deltaUsd: 0.01, cacheWarm: true, addedTokens: 9, exact: true, label: 'moves system[1]' }

  it('lists an edit saved for the next compaction, priced applied now with the file as on disk, and applies it when asked', async () => {
    store().draftEdited('rules, later')
    answers.set('files.save', () => ({ ok: true, value: { status: 'saved', path: 'docs/extra.md', sha256: 'sha-later', backupPath: null, charsBefore: 5, charsAfter: 12 } }))
    answers.set('files.unapplied', () => ({ ok: true, value: { paths: ['docs/extra.md'] } }))
    answers.set('files.read', () => ({ ok: true, value: file('rules, later') }))
    answers.set('session.cacheSummary', () => ({ ok: true, value: {} }))
    answers.set('cache.priceEdit', () => ({ ok: true, value: price }))
    await saveOpenFile('ses_a', 'later')
    expect(asked.some((a) => a.name === 'files.apply')).toBe(false)
    expect(store().unapplied).toEqual({ sessionId: 'ses_a', paths: ['docs/extra.md'], price })
    // Priced as applying reads it: the file on disk, applied now.
    expect(asked.find((a) => a.name === 'cache.priceEdit')?.input).toEqual({ sessionId: 'ses_a', edit: { kind: 'instruction_file', path: 'docs/extra.md', applyNow: true, charsBefore: 12, charsAfter: 12, text: 'rules, later' } })

    answers.set('files.apply', () => ({ ok: true, value: { applied: true, entryId: 'ent_1', message: 'applied now' } }))
    answers.set('files.unapplied', () => ({ ok: true, value: { paths: [] } }))
    await applyUnappliedNow('prj_a')
    expect(asked.filter((a) => a.name === 'files.apply').at(-1)?.input).toEqual({ sessionId: 'ses_a', paths: ['docs/extra.md'] })
    expect(store().unapplied).toBeNull()
    expect(store().save).toMatchObject({ kind: 'saved', applied: 'now', message: 'Applied docs/extra.md now: the next pass sends it, and writes the session block and everything after it again (+$0.0100 · re-bills 1,234 tokens).' })
  })

  it('shows only the newest answer, and nothing when the session sends every file as it is', async () => {
    let release: (a: Answer) => void = () => {}
    answers.set('files.unapplied', () => new Promise<Answer>((resolve) => (release = resolve)))
    const older = loadUnapplied('ses_a', 'prj_a')
    const releaseOlder = release
    answers.set('files.unapplied', () => ({ ok: true, value: { paths: [] } }))
    await loadUnapplied('ses_a', 'prj_a')
    releaseOlder({ ok: true, value: { paths: ['AGENTS.md'] } })
    await older
    expect(store().unapplied).toBeNull()
  })

  it('notices a file changed outside Loupe by asking only for the list, and prices it only when the list changed', async () => {
    useFilesStore.setState({ unapplied: null })
    answers.set('files.unapplied', () => ({ ok: true, value: { paths: [] } }))
    await checkUnapplied('ses_a', 'prj_a')
    expect(asked.map((a) => a.name)).toEqual(['files.unapplied'])
    // Appended to by a script while the window kept the focus: listed, and priced once.
    answers.set('files.unapplied', () => ({ ok: true, value: { paths: ['docs/extra.md'] } }))
    answers.set('files.read', () => ({ ok: true, value: file('rules, from a script') }))
    answers.set('session.cacheSummary', () => ({ ok: true, value: {} }))
    answers.set('cache.priceEdit', () => ({ ok: true, value: price }))
    await checkUnapplied('ses_a', 'prj_a')
    expect(store().unapplied).toEqual({ sessionId: 'ses_a', paths: ['docs/extra.md'], price })
    const priced = asked.filter((a) => a.name === 'cache.priceEdit').length
    expect(priced).toBe(1)
    await checkUnapplied('ses_a', 'prj_a')
    expect(asked.filter((a) => a.name === 'cache.priceEdit')).toHaveLength(priced)
  })

  it('prices again when a listed file changes on disk, also after it was unreadable for a while', async () => {
    useFilesStore.setState({ unapplied: null })
    const bigger = { ...price, deltaUsd: 0.018, rebilledTokens: 5328 }
    answers.set('files.unapplied', () => ({ ok: true, value: { paths: ['docs/extra.md'] } }))
    answers.set('files.read', () => ({ ok: true, value: file('rules') }))
    answers.set('session.cacheSummary', () => ({ ok: true, value: {} }))
    answers.set('cache.priceEdit', () => ({ ok: true, value: price }))
    await checkUnapplied('ses_a', 'prj_a')
    expect(store().unapplied?.price).toEqual(price)
    // Appended to from a shell: the same list, another text.
    answers.set('files.read', () => ({ ok: true, value: file('rules, and 10 KB more') }))
    answers.set('cache.priceEdit', () => ({ ok: true, value: bigger }))
    await checkUnapplied('ses_a', 'prj_a')
    expect(store().unapplied?.price).toEqual(bigger)
    expect(asked.filter((a) => a.name === 'cache.priceEdit').at(-1)?.input).toMatchObject({ edit: { text: 'rules, and 10 KB more' } })
    // Binary for a while: no price; a text file again: priced again, without anything else happening.
    answers.set('files.read', () => ({ ok: false, error: { code: 'unsupported', message: 'docs/extra.md cannot be edited here: it is a binary file' } }))
    await checkUnapplied('ses_a', 'prj_a')
    expect(store().unapplied?.price).toBeNull()
    answers.set('files.read', () => ({ ok: true, value: file('rules, text again') }))
    await checkUnapplied('ses_a', 'prj_a')
    expect(store().unapplied?.price).toEqual(bigger)
    const priced = asked.filter((a) => a.name === 'cache.priceEdit').length
    await checkUnapplied('ses_a', 'prj_a')
    expect(asked.filter((a) => a.name === 'cache.priceEdit')).toHaveLength(priced)
  })

  it('is asked again when another window applies the files now, which reaches this one as the notice it appends', () => {
    const again = vi.fn()
    const off = onUnappliedMayChange('ses_a', 'prj_a', again)
    emit('entries.appended', { sessionId: 'ses_b', entries: [] })
    expect(again).not.toHaveBeenCalled()
    emit('entries.appended', { sessionId: 'ses_a', entries: [{ kind: 'notice', source: 'instructions', level: 'info', text: 'CLAUDE.md applied now' }] })
    expect(again).toHaveBeenCalledTimes(1)
    emit('files.changed', { projectId: 'prj_a', path: 'CLAUDE.md' })
    emit('pass.completed', { sessionId: 'ses_a', pass: {} })
    emit('compaction.applied', { sessionId: 'ses_a' })
    expect(again).toHaveBeenCalledTimes(4)
    off()
    emit('entries.appended', { sessionId: 'ses_a', entries: [] })
    expect(again).toHaveBeenCalledTimes(4)
  })

  it('keeps the files listed when the session is still busy, and says so', async () => {
    useFilesStore.setState({ unapplied: { sessionId: 'ses_a', paths: ['AGENTS.md'], price: null } })
    answers.set('files.apply', () => ({ ok: false, error: { code: 'busy', message: 'A turn started meanwhile' } }))
    await applyUnappliedNow('prj_a')
    expect(store().unapplied).toEqual({ sessionId: 'ses_a', paths: ['AGENTS.md'], price: null })
    expect(store().save).toMatchObject({ warning: true, message: expect.stringContaining('still busy') })
    expect(asked.some((a) => a.name === 'files.unapplied')).toBe(false)
  })
})

describe('a save that cannot succeed', () => {
  it('does not send a draft over 1 MB (Ctrl/Cmd-S reaches the save with the button disabled), and does not say to try again', async () => {
    store().draftEdited('x'.repeat(1_100_034))
    answers.set('files.save', () => ({ ok: false, error: { code: 'invalid_input', message: 'over the 1 MB' } }))
    await saveOpenFile('ses_a', 'now')
    expect(asked.filter((a) => a.name === 'files.save')).toEqual([])
    expect(store().save).toMatchObject({ kind: 'failed', retry: false, message: expect.stringMatching(/was not saved: it is over the 1 MB the prompt builder reads of a file$/) })
  })

  it('says to try again after a write that failed, not after a refusal of the text', async () => {
    store().draftEdited('rules, edited')
    answers.set('files.save', () => ({ ok: false, error: { code: 'io_error', message: 'docs/extra.md could not be written: ENOSPC' } }))
    await saveOpenFile(null, 'now')
    expect(store().save).toMatchObject({ kind: 'failed', retry: true })
    answers.set('files.save', () => ({ ok: false, error: { code: 'permission_denied', message: 'not an instruction file of this project' } }))
    await saveOpenFile(null, 'now')
    expect(store().save).toMatchObject({ kind: 'failed', retry: false })
  })
})

describe('a file deleted on disk while open', () => {
  it("keeps the user's text, edited or not, and saves it back as a new file", async () => {
    store().draftEdited('rules, mine')
    answers.set('files.read', () => ({ ok: true, value: { path: 'docs/extra.md', absPath: '/p/docs/extra.md', text: '', exists: false, sha256: null } }))
    answers.set('files.list', () => ({ ok: false, error: { code: 'internal', message: 'not needed' } }))
    await checkDisk()
    expect(store().open).toMatchObject({ deleted: true, draft: 'rules, mine', disk: null, base: { exists: false, sha256: null } })

    answers.set('files.save', (input) => ({ ok: true, value: { status: 'saved', path: 'docs/extra.md', sha256: 'sha-mine', backupPath: null, charsBefore: 0, charsAfter: (input as { text: string }).text.length } }))
    await saveOpenFile(null, 'now')
    expect(asked.find((a) => a.name === 'files.save')?.input).toMatchObject({ text: 'rules, mine', baseSha256: null })
    expect(store().open).toMatchObject({ deleted: false, base: { exists: true, text: 'rules, mine' } })
  })
})

describe('a file that becomes unreadable on disk while open', () => {
  const binary = { ok: false as const, error: { code: 'unsupported', message: 'docs/extra.md cannot be edited here: it is a binary file' } }

  it("says why, keeps the user's text, refuses to save until the file is readable again, then offers the merge", async () => {
    store().draftEdited('rules, mine')
    answers.set('files.list', () => ({ ok: false, error: { code: 'internal', message: 'not needed' } }))
    answers.set('files.read', () => binary)
    await checkDisk()
    expect(store().open).toMatchObject({ unreadable: 'docs/extra.md cannot be edited here: it is a binary file', draft: 'rules, mine', disk: null })
    await saveOpenFile('ses_a', 'now')
    expect(asked.some((a) => a.name === 'files.save')).toBe(false)
    expect(store().save).toMatchObject({ kind: 'failed', message: expect.stringContaining('binary') })
    // A link out of the project: said too, with its own reason.
    answers.set('files.read', () => ({ ok: false, error: { code: 'permission_denied', message: 'docs/extra.md resolves to /etc/x, outside the project and ~/.loupe' } }))
    await checkDisk()
    expect(store().open?.unreadable).toContain('outside the project')
    // The refusal said "binary": no longer what the file is.
    expect(store().save).toEqual({ kind: 'idle' })
    // Text again, and not what was opened: the note and the save error go, the merge comes.
    answers.set('files.read', () => ({ ok: true, value: file('rules, restored') }))
    await checkDisk()
    expect(store().open).not.toHaveProperty('unreadable')
    expect(store().save).toEqual({ kind: 'idle' })
    expect(store().open?.disk).toMatchObject({ text: 'rules, restored' })
  })

  it('clears a save error once the merge is resolved', async () => {
    store().draftEdited('rules, mine')
    answers.set('files.list', () => ({ ok: false, error: { code: 'internal', message: 'not needed' } }))
    // The save meets the binary file before any look of the disk check did.
    answers.set('files.save', () => ({ ok: false, error: { code: 'conflict', message: 'docs/extra.md changed on disk: it is now a binary file. Nothing was written' } }))
    answers.set('files.read', () => binary)
    await saveOpenFile('ses_a', 'now')
    expect(store().save).toMatchObject({ kind: 'failed' })
    expect(store().open?.unreadable).toContain('binary')
    answers.set('files.read', () => ({ ok: true, value: file('rules, restored') }))
    await checkDisk()
    store().mergeAccepted('rules, restored')
    expect(store().save).toEqual({ kind: 'idle' })
    expect(store().open).toMatchObject({ draft: 'rules, restored', disk: null, base: { text: 'rules, restored' } })
  })

  it('drops a save error when a merge is resolved, even with the file readable throughout', () => {
    store().draftEdited('rules, mine')
    store().saveFailed('docs/extra.md was not saved: it is now a binary file', false)
    store().diskChanged({ text: 'rules, disk', sha256: 'sha-rules, disk', exists: true })
    store().mergeAccepted('rules, disk')
    expect(store().save).toEqual({ kind: 'idle' })
  })
})

describe('a nested instruction file', () => {
  it('is saved without an apply: it is not in the session block, so applying now would re-bill it for nothing', async () => {
    const nested = { path: 'docs/extra.md', absPath: '/p/docs/extra.md', kind: 'nested' as const, tier: null, status: 'nested' as const, reason: 'not in the session block', chars: 5, tokens: 0, patterns: [], importedBy: null, editable: true, children: [] }
    useFilesStore.setState({ listing: { root: '/p', instructions: [nested], memory: [], creatable: [], notes: [], sessionBlockTokens: 10, budgetChars: 40_000, usedChars: 0 } })
    expect(afterBreakpoints(nested)).toBe('docs/extra.md is not in the session block: it travels after the breakpoints, once per session, the first time the agent reads or edits a file under docs/. Saving it moves nothing cached and costs nothing now. A session it was already sent to keeps the earlier text; the others get the new one.')
    store().draftEdited('rules, edited')
    answers.set('files.save', () => ({ ok: true, value: { status: 'saved', path: 'docs/extra.md', sha256: 'sha-new', backupPath: null, charsBefore: 5, charsAfter: 13 } }))
    await saveOpenFile('ses_a', 'now')
    expect(asked.some((a) => a.name === 'files.apply')).toBe(false)
    expect(store().save).toMatchObject({ kind: 'saved', message: expect.stringContaining('Nothing cached moves') })
    useFilesStore.setState({ listing: null })
  })
})

describe('a file the view offers to create', () => {
  const absent: OpenedFileView = { path: '.loupe/memory.md', absPath: '/p/.loupe/memory.md', text: '', exists: false, sha256: null, startingText: '# Project memory\n\n' }

  it('opens as a draft of its starting text, writes nothing until saved, and is created by the first save', async () => {
    answers.set('files.read', () => ({ ok: true, value: absent }))
    await startNewFile('prj_a', '.loupe/memory.md')
    expect(asked.map((a) => a.name)).toEqual(['files.read'])
    expect(store().open).toMatchObject({ draft: '# Project memory\n\n', base: { exists: false, sha256: null } })
    expect(store().editorFocus).toBe('/p/.loupe/memory.md')
    // Priced as memory, which is what the listing offers it as, though it has no node in the tree yet.
    expect(editKind(null, { path: '.loupe/memory.md', kind: 'project_memory', label: 'Project memory' })).toBe('memory_file')
    expect(editKind(null, { path: 'AGENTS.md', kind: 'instructions', label: 'AGENTS.md' })).toBe('instruction_file')

    store().draftEdited('# Project memory\n\n- cents\n')
    answers.set('files.save', (input) => ({ ok: true, value: { status: 'saved', path: '.loupe/memory.md', sha256: 'sha-new', backupPath: null, charsBefore: 0, charsAfter: (input as { text: string }).text.length } }))
    await saveOpenFile(null, 'now')
    expect(asked.find((a) => a.name === 'files.save')?.input).toMatchObject({ path: '.loupe/memory.md', text: '# Project memory\n\n- cents\n', baseSha256: null })
    expect(store().open).toMatchObject({ base: { exists: true, text: '# Project memory\n\n- cents\n' } })
  })

  it('lets an untouched starting text go when another file is opened, and keeps one typed in', async () => {
    answers.set('files.read', () => ({ ok: true, value: absent }))
    await startNewFile('prj_a', '.loupe/memory.md')
    expect(unsavedCount(store())).toBe(0)
    store().fileOpened('prj_a', file('rules'))
    expect(store().unsaved).toEqual({})

    await startNewFile('prj_a', '.loupe/memory.md')
    store().draftEdited('# Project memory\n\n- typed\n')
    expect(unsavedCount(store())).toBe(1)
    store().fileOpened('prj_a', file('rules'))
    expect(Object.keys(store().unsaved)).toEqual(['/p/.loupe/memory.md'])
    // Started again, it comes back as it was left.
    await startNewFile('prj_a', '.loupe/memory.md')
    expect(store().open?.draft).toBe('# Project memory\n\n- typed\n')
  })

  it('lists a new file left unsaved as a new file to open again, not as a file no longer listed', async () => {
    answers.set('files.read', () => ({ ok: true, value: absent }))
    await startNewFile('prj_a', '.loupe/memory.md')
    store().draftEdited('# Project memory\n\n- typed\n')
    store().fileOpened('prj_a', file('rules'))
    // A draft of a file gone from the listing (an import removed) stays apart from it.
    const gone = { projectId: 'prj_a', base: { path: 'docs/old.md', absPath: '/p/docs/old.md', text: 'old', exists: true, sha256: 'sha-old' }, draft: 'old, edited' }
    const node = { path: 'docs/extra.md', absPath: '/p/docs/extra.md', kind: 'project', status: 'included', tokens: 2, children: [] }
    const listing = { root: '/p', instructions: [node], memory: [], creatable: [{ path: '.loupe/memory.md', kind: 'project_memory', label: 'Project memory' }], notes: [], sessionBlockTokens: 0, budgetChars: 0, usedChars: 0 } as unknown as FilesListingView
    const off = draftsOffTree(listing, [...Object.values(store().unsaved), gone], 'prj_a')
    expect(off.newFiles.map((d) => d.base.path)).toEqual(['.loupe/memory.md'])
    expect(off.stranded.map((d) => d.base.path)).toEqual(['docs/old.md'])
    expect(draftsOffTree(listing, Object.values(store().unsaved), 'prj_b')).toEqual({ newFiles: [], stranded: [] })
  })

  it('opens a file made meanwhile as it is', async () => {
    answers.set('files.read', () => ({ ok: true, value: { path: '.loupe/memory.md', absPath: '/p/.loupe/memory.md', text: 'by the agent\n', exists: true, sha256: 'sha-agent' } }))
    answers.set('files.list', () => ({ ok: false, error: { code: 'internal', message: 'not needed' } }))
    await startNewFile('prj_a', '.loupe/memory.md')
    expect(store().open).toMatchObject({ draft: 'by the agent\n', base: { exists: true } })
  })
})
