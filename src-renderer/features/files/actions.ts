/**
 * The Files view's requests: the listing, opening a file, pricing the draft for the session's next pass, saving
 * (then applying now, or leaving it for the next compaction), creating a file, and noticing a change on disk.
 */
import { client } from '../../platform/client'
import { useFilesStore, type ApplyChoice, type EditPriceView, type UnsavedDraft } from '../../state/files'
import { selectChat, useChatStore } from '../../state/chat'
import type { FileNodeView, FilesListingView, OpenedFileView } from '../../../src-preload/contract'
import { useSessionsStore } from '../../state/sessions'
import { retryMayHelp, unsavableDraft } from './draft-limits'
import { appliedNowWords, savedWithoutSessionWords } from './price-words'
import { refusedFile, unopenable, useUnopenableStore } from './unopenable'
import { loadedMonaco } from '../../monaco'
import type { FieldNow } from '../../ui/focus-when-shown'

const noteShown = (file: ReturnType<typeof unopenable>) => useUnopenableStore.setState({ file })

/** The node of `path` in a listing's tree, or null. */
export function findNode(nodes: ReadonlyArray<FileNodeView>, path: string): FileNodeView | null {
  for (const n of nodes) {
    if (n.path === path) return n
    const inner = findNode(n.children, path)
    if (inner) return inner
  }
  return null
}

/**
 * This project's unsaved drafts the tree cannot open, to be listed under it: `newFiles`, drafts of a file the listing
 * offers to create that is still not written (started, typed in, then left for another file: it never existed, and
 * is opened again from its row); `stranded`, drafts of a file the listing no longer shows (an import removed, a file
 * grown too large, deleted), which can only be copied or given up.
 */
export function draftsOffTree(listing: FilesListingView, drafts: ReadonlyArray<UnsavedDraft>, projectId: string): { readonly newFiles: UnsavedDraft[]; readonly stranded: UnsavedDraft[] } {
  const listed = new Set<string>()
  const walk = (nodes: ReadonlyArray<FileNodeView>) => nodes.forEach((n) => (listed.add(n.absPath), walk(n.children)))
  walk([...listing.instructions, ...listing.memory])
  const creatable = new Set(listing.creatable.map((c) => c.path))
  const off = drafts.filter((d) => d.projectId === projectId && !listed.has(d.base.absPath))
  const isNew = (d: UnsavedDraft) => !d.base.exists && creatable.has(d.base.path)
  return { newFiles: off.filter(isNew), stranded: off.filter((d) => !isNew(d)) }
}

/**
 * Listings are asked for from several places (the view opening, a save, another window's save): only the answer to
 * the newest request is shown, so an older answer that arrives late does not put back a tree the disk has left.
 */
let newestListing = 0

export async function loadListing(projectId: string): Promise<void> {
  const store = useFilesStore.getState()
  if (store.projectId !== projectId) noteShown(null)
  store.projectShown(projectId)
  const asked = ++newestListing
  const result = await client.request('files.list', { projectId })
  if (asked !== newestListing) return
  if (result.ok) store.listingLoaded(projectId, result.value)
  else store.listingFailed(`Could not list the instruction files: ${result.error.message}`)
}

/**
 * The number of the file last picked (opened or started). Reads of files overlap: a file clicked while the one
 * clicked before is still being read, or a project left while its file is read, would otherwise open whichever
 * answers last. Only the answer for the file picked last, in the project shown, opens.
 */
let newestPick = 0

/** The pick numbered `asked` is still what the view wants: no file picked since, and its project still shown. */
const stillWanted = (asked: number, projectId: string) => asked === newestPick && useFilesStore.getState().projectId === projectId

/**
 * Opens a file in the editor. One this view cannot edit (the prompt builder skipped it as too large, binary …; or
 * the main process refuses it as `unsupported`, e.g. not valid UTF-8) gets a note saying why instead (unopenable.ts).
 */
export async function openFile(projectId: string, path: string): Promise<void> {
  const asked = ++newestPick
  const listing = useFilesStore.getState().listing
  const node = listing ? findNode([...listing.instructions, ...listing.memory], path) : null
  const skipped = node ? unopenable(node) : null
  noteShown(skipped)
  if (skipped) return
  const result = await client.request('files.read', { projectId, path })
  if (!stillWanted(asked, projectId)) return
  if (result.ok) useFilesStore.getState().fileOpened(projectId, result.value)
  else if (result.error.code === 'unsupported') noteShown(refusedFile(path, node?.absPath ?? null, result.error.message))
  else useFilesStore.getState().fileOpenFailed(result.error.message)
}

/**
 * Starts a file the listing offers (AGENTS.md, a memory file): it opens as an unsaved draft of its starting text,
 * priced like any edit, and the first save writes it (decision 0027). Nothing is on disk before that, so changing
 * one's mind leaves nothing behind. A draft left earlier comes back as it was; a file made meanwhile (by the agent,
 * another window or another editor) is simply opened.
 */
export async function startNewFile(projectId: string, path: string): Promise<void> {
  const asked = ++newestPick
  noteShown(null)
  const result = await client.request('files.read', { projectId, path })
  if (!stillWanted(asked, projectId)) return
  if (!result.ok) {
    useFilesStore.getState().fileOpenFailed(`${path} could not be started: ${result.error.message}`)
    return
  }
  if (result.value.exists) void reloadListing(projectId)
  useFilesStore.getState().fileOpened(projectId, result.value)
  // Started to be written in: the keyboard goes to its editor, not back to the page.
  useFilesStore.getState().editorFocusRequested(result.value.absPath)
}

/**
 * The editor of `path`, once the Files view shows that file in it (for focusWhenShown: a file the palette opens is
 * read first, and its editor is made after). Found by its label, which names the file: the editor the view had
 * before is still on the page for a moment after the new file is chosen.
 */
export function fileEditorTarget(projectId: string, path: string): () => FieldNow {
  return () => {
    const open = useFilesStore.getState().open
    if (open?.projectId !== projectId || open.base.path !== path) return null
    const editor = loadedMonaco()
      ?.editor.getEditors()
      .find((e) => e.getContainerDomNode().isConnected && e.getRawOptions().ariaLabel?.startsWith(`Edit ${path} (`))
    if (!editor) return null
    return { focus: () => editor.focus(), type: (text) => editor.trigger('keyboard', 'type', { text }) }
  }
}

/** Reads the listing again without clearing what is shown (on files.changed, from this window's save or another's). */
export async function reloadListing(projectId: string): Promise<void> {
  const asked = ++newestListing
  const result = await client.request('files.list', { projectId })
  if (asked === newestListing && result.ok) useFilesStore.getState().listingLoaded(projectId, result.value)
}

/**
 * The kind of edit the price is for: memory files are priced as memory, everything else as instructions. A file not
 * written yet has no node: its kind is the one the listing offers to create it as.
 */
export function editKind(node: FileNodeView | null, creatable?: FilesListingView['creatable'][number]): 'instruction_file' | 'memory_file' {
  if (node) return node.kind === 'memory' ? 'memory_file' : 'instruction_file'
  return creatable?.kind === 'project_memory' || creatable?.kind === 'user_memory' ? 'memory_file' : 'instruction_file'
}

/**
 * For a nested instruction file (or a file it imports), what an edit to it does, in words; null for any other file.
 * It is not in the session block: the loop sends it after the breakpoints, once per session, the first time the agent
 * reads or edits a file under its folder (docs/context-engine.md "After-the-breakpoint context"). So saving it never
 * moves the cached prefix, like memory saved mid-session, and there is nothing to price or to apply now.
 */
export function afterBreakpoints(node: FileNodeView | null): string | null {
  if (!node || (node.kind !== 'nested' && node.status !== 'nested')) return null
  // A nested file's folder is the one it sits in (its path is root-relative, `/`-separated).
  const when = node.kind === 'nested' ? `the first time the agent reads or edits a file under ${node.path.slice(0, node.path.lastIndexOf('/') + 1)}` : 'with the nested instruction file that imports it'
  return `${node.path} is not in the session block: it travels after the breakpoints, once per session, ${when}. Saving it moves nothing cached and costs nothing now. A session it was already sent to keeps the earlier text; the others get the new one.`
}

/** Sessions whose passes are known to be attributed (each is, when committed; an imported or older one may not be). */
const attributed = new Set<string>()

/** Attributes every pass of the session the first time it is priced for, so the price sees every cache entry it wrote. */
async function attributeOnce(sessionId: string): Promise<void> {
  if (attributed.has(sessionId)) return
  const summary = await client.request('session.cacheSummary', { sessionId })
  if (summary.ok) attributed.add(sessionId)
}

/**
 * The longest pricing may take before the panel says it failed: a count the model service never answers (or a
 * connection that dropped the request) must not leave "pricing…" on screen for good.
 */
export const PRICE_TIMEOUT_MS = 30_000

/** Rejects with a plain message after `ms`; the work itself is left to finish (its answer is then ignored). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${Math.round(ms / 1000)} s; edit the text to try again`)), ms)
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

/**
 * Prices the draft for the session's next pass, applied now and at the next compaction. The draft's text goes with
 * the request: the main process builds the next request with it and counts it (count_tokens), so the price is in
 * real tokens; counts it made before are kept, so pricing while typing (after a pause, FilesView) counts one new
 * request per draft. The first time for a session, every pass is attributed first (`session.cacheSummary`), so the
 * price sees every cache entry it wrote. Whatever happens, pricing ends: with a price or with an error (never a
 * "pricing…" that stays).
 */
export async function priceDraft(sessionId: string, path: string, kind: 'instruction_file' | 'memory_file', before: string, draft: string, timeoutMs = PRICE_TIMEOUT_MS): Promise<void> {
  const store = useFilesStore.getState()
  store.priceLoading(draft)
  try {
    const [now, later, base] = await within(
      (async () => {
        await attributeOnce(sessionId)
        const edit = (applyNow: boolean, text = draft) => ({ kind, path, applyNow, charsBefore: before.length, charsAfter: text.length, text })
        // The third: the file as it is on disk, applied now. Applying now also sends what changed on disk since the
        // session block was read and drops a note already due; the draft's own effect is the difference from this.
        // Its text does not change while the user types, so its counts are answered from memory after the first.
        return Promise.all([
          client.request('cache.priceEdit', { sessionId, edit: edit(true) }),
          client.request('cache.priceEdit', { sessionId, edit: edit(false) }),
          client.request('cache.priceEdit', { sessionId, edit: edit(true, before) }),
        ])
      })(),
      timeoutMs,
    )
    if (!now.ok) return store.priceFailed(draft, `Could not price the edit: ${now.error.message}`)
    if (!later.ok) return store.priceFailed(draft, `Could not price the edit: ${later.error.message}`)
    store.priceLoaded(draft, now.value, later.value, base.ok ? base.value : null)
  } catch (err) {
    store.priceFailed(draft, `Could not price the edit: ${err instanceof Error ? err.message : String(err)}`)
  }
}

/** `Saved X, but not applied: …` as a warning, with the files kept to apply once the session is idle when it was busy. */
function notApplied(absPath: string, base: Parameters<ReturnType<typeof useFilesStore.getState>['saveFinished']>[1], backupPath: string | null, sessionId: string, error: { code: string; message: string }): void {
  const store = useFilesStore.getState()
  const busy = error.code === 'busy'
  const message = busy
    ? `Saved ${base.path}, but not applied yet: the session is busy (a turn or a compaction is running) and keeps sending the old text. Apply it when the turn ends, or stop the turn with Esc.`
    : `Saved ${base.path}, but not applied: ${error.message}`
  store.saveFinished(absPath, base, { kind: 'saved', applied: 'later', message, backupPath, warning: true, ...(busy ? { waiting: { sessionId, path: base.path } } : {}) })
  // Listed as not applied yet at once: the list is asked for again only once the session is idle. An answer asked for
  // before the save (when the disk still had the old text) is older than this and must not take it away.
  if (busy) {
    newestUnapplied++
    const known = store.unapplied?.sessionId === sessionId ? store.unapplied : null
    store.unappliedFound({ sessionId, paths: [...new Set([...(known?.paths ?? []), base.path])], price: null, ...(known?.sent ? { sent: known.sent } : {}) })
  }
}

/**
 * Saves the open file; applies it now when asked. A change on disk since it was opened comes back as a merge. The
 * listing follows from the files.changed event the save sends to every window. `sessionId` is null when no session
 * of Loupe's can take the edit (none open, or one imported or captured, which sends no pass).
 */
export async function saveOpenFile(sessionId: string | null, choice: ApplyChoice): Promise<void> {
  const store = useFilesStore.getState()
  const open = store.open
  if (!open || store.save.kind === 'saving') return
  // The view disables Save for such a draft; Ctrl/Cmd-S reaches here all the same. Sent, it would only be refused.
  const unsavable = unsavableDraft(open.draft)
  // The reason in short; the view says the refusal in the box under the editor that already explains it in full.
  if (unsavable) return store.saveFailed(`${open.base.path} was not saved: ${unsavable.short}`, false)
  // Likewise while the file on disk cannot be read (the view disables Save and says why): the main process would refuse it.
  if (open.unreadable) return store.saveFailed(`${open.base.path} was not saved: ${open.unreadable}`, false)
  store.saveStarted()
  const result = await client.request('files.save', { projectId: open.projectId, path: open.base.path, text: open.draft, baseSha256: open.base.sha256 })
  if (!result.ok) {
    store.saveFailed(`${open.base.path} was not saved: ${result.error.message}`, retryMayHelp(result.error.code))
    // Refused for what the file became on disk (binary, a link out of the project): the disk check says so at once,
    // rather than at its next look, and Save waits for the file to be readable again.
    if (result.error.code === 'conflict' || result.error.code === 'permission_denied' || result.error.code === 'unsupported') await checkDisk()
    return
  }
  const saved = result.value
  if (saved.status === 'conflict') {
    // Deleted on disk before the poll saw it: there is nothing to merge with; the text stays, to be saved back.
    if (!saved.disk.exists && open.base.exists && useFilesStore.getState().open?.base.absPath === open.base.absPath) {
      useFilesStore.getState().fileDeletedOnDisk()
      return
    }
    store.conflictFound(open.base.absPath, saved.disk, saved.minePath)
    return
  }
  const base = { ...open.base, text: open.draft, sha256: saved.sha256, exists: true }
  const backupPath = saved.status === 'saved' ? saved.backupPath : null
  const listing = useFilesStore.getState().listing
  const after = afterBreakpoints(listing ? findNode([...listing.instructions, ...listing.memory], open.base.path) : null)
  if (after) {
    // Applying now would freeze the session block again for a file that is not in it: a re-bill for nothing.
    store.saveFinished(open.base.absPath, base, { kind: 'saved', applied: 'later', message: `Saved ${open.base.path}. Nothing cached moves: it is sent after the breakpoints when the agent reads or edits a file under its folder.`, backupPath })
  } else if (!sessionId) {
    const loupeSessions = (useSessionsStore.getState().byProject[open.projectId] ?? []).filter((x) => (x.origin ?? 'loupe') === 'loupe').length
    store.saveFinished(open.base.absPath, base, { kind: 'saved', applied: 'no_session', message: savedWithoutSessionWords(open.base.path, loupeSessions), backupPath })
  } else if (choice === 'later') {
    // A session that has sent nothing yet takes its instructions at its first pass: it sends the new text then.
    const chat = selectChat(sessionId)(useChatStore.getState())
    const unsent = chat.loaded && chat.entries.length === 0
    const message = unsent
      ? `Saved ${open.base.path}. The session has sent nothing yet: its first pass reads the file as it is now.`
      : `Saved ${open.base.path}. The session keeps sending the old text until its next compaction; nothing above the breakpoints moves.`
    store.saveFinished(open.base.absPath, base, { kind: 'saved', applied: 'later', message, backupPath, ...(unsent ? {} : { waiting: { sessionId, path: open.base.path } }) })
    // Now listed as not applied yet, with its price: the user may still change their mind.
    await loadUnapplied(sessionId, open.projectId)
  } else {
    // The price the panel showed for this draft, which applying it now pays.
    const shown = useFilesStore.getState().price
    const pricedNow = shown.forDraft === open.draft ? shown.now : null
    const applied = await client.request('files.apply', { sessionId, paths: [open.base.path] })
    if (!applied.ok) notApplied(open.base.absPath, base, backupPath, sessionId, applied.error)
    else {
      store.saveFinished(open.base.absPath, base, { kind: 'saved', applied: applied.value.applied ? 'now' : 'later', message: applied.value.applied ? appliedNowWords(`Saved ${open.base.path} and applied it now`, pricedNow) : `Saved ${open.base.path}. ${applied.value.message}`, backupPath })
      // The files.changed of the save may have listed it as not applied before the apply answered.
      await loadUnapplied(sessionId, open.projectId)
    }
  }
}

/**
 * Answers to files.unapplied can cross (a save, a pass and a compaction all ask): only the newest is shown, so an
 * older answer does not bring back a file applied meanwhile.
 */
let newestUnapplied = 0

/**
 * What the files listed were on disk when the bar's price was asked (each file's sha256, or why it could not be
 * read), for the session it was asked for: a file listed whose text changed since (appended to from a shell, made
 * unreadable, readable again) is priced again, as a change in the list is.
 */
let pricedDisk: string | null = null

/** The files at `paths` as on disk now (null for one that cannot be read), with the key `pricedDisk` compares. */
async function readUnapplied(sessionId: string, projectId: string, paths: ReadonlyArray<string>): Promise<{ readonly first: OpenedFileView | null; readonly key: string }> {
  const reads = await Promise.all(paths.map((path) => client.request('files.read', { projectId, path })))
  const key = [sessionId, ...reads.map((r, i) => `${paths[i]}:${r.ok ? (r.value.exists ? r.value.sha256 : 'missing') : `unreadable ${r.error.code} ${r.error.message}`}`)].join('\n')
  const first = reads[0]
  return { first: first?.ok && first.value.exists ? first.value : null, key }
}

/**
 * Asks which files the session does not send as they are on disk (files.unapplied), then prices applying them now:
 * the file on disk applied now, as the price panel's `base` prices it (applying reads the whole session block again
 * from disk, so one price covers every file listed). Nothing listed, nothing is shown.
 */
export async function loadUnapplied(sessionId: string, projectId: string): Promise<void> {
  const asked = ++newestUnapplied
  const result = await client.request('files.unapplied', { sessionId })
  if (asked !== newestUnapplied) return
  if (!result.ok || result.value.paths.length === 0) {
    pricedDisk = null
    return useFilesStore.getState().unappliedFound(null, result.ok ? sessionId : undefined)
  }
  const paths = result.value.paths
  const sent = { ...(result.value.sent ? { sent: result.value.sent } : {}), ...(result.value.changes ? { changes: result.value.changes } : {}) }
  const disk = await readUnapplied(sessionId, projectId, paths)
  if (asked !== newestUnapplied) return
  // The same files as before, unchanged on disk, keep their price while it is asked again: the bar does not flicker
  // on every event. A file whose text changed loses its old price at once: it is no longer what applying costs.
  const shown = useFilesStore.getState().unapplied
  const kept = shown?.sessionId === sessionId && shown.paths.join('\n') === paths.join('\n') && pricedDisk === disk.key ? shown.price : null
  useFilesStore.getState().unappliedFound({ sessionId, paths, price: kept, ...sent })
  const price = await priceApplyingNow(sessionId, paths[0]!, disk.first)
  if (asked !== newestUnapplied) return
  pricedDisk = disk.key
  useFilesStore.getState().unappliedFound({ sessionId, paths, price, ...sent })
}

/**
 * Asks which files the session does not send as they are on disk (a read of the session's files, no count), reads
 * them, and loads them with their price when the list or a listed file's text changed: how a change made outside
 * Loupe (a terminal, a checkout, a script) reaches the bar while the window keeps the focus.
 */
export async function checkUnapplied(sessionId: string, projectId: string): Promise<void> {
  // A list asked for since (another session picked, a save) answers for what the view shows now: this look is past.
  const asked = newestUnapplied
  const result = await client.request('files.unapplied', { sessionId })
  if (!result.ok || asked !== newestUnapplied) return
  const shown = useFilesStore.getState().unapplied
  const before = shown?.sessionId === sessionId ? shown.paths.join('\n') : ''
  const paths = result.value.paths
  if (paths.join('\n') !== before) return loadUnapplied(sessionId, projectId)
  if (paths.length === 0) return
  const disk = await readUnapplied(sessionId, projectId, paths)
  if (asked !== newestUnapplied) return
  if (disk.key !== pricedDisk) await loadUnapplied(sessionId, projectId)
}

/**
 * Calls `again` on each event after which the session may send other files than before: a save in any window
 * (files.changed), a pass, a compaction applied, and new entries in the session, among them the notice of an apply
 * made in another window (or a model switch, which changes the price). Returns the unsubscribe.
 */
export function onUnappliedMayChange(sessionId: string, projectId: string, again: () => void): () => void {
  const offs = [
    client.on('files.changed', (e) => e.projectId === projectId && again()),
    client.on('pass.completed', (e) => e.sessionId === sessionId && again()),
    client.on('compaction.applied', (e) => e.sessionId === sessionId && again()),
    client.on('entries.appended', (e) => e.sessionId === sessionId && again()),
  ]
  return () => offs.forEach((off) => off())
}

/** The price of applying now with the file at `path` as it is on disk (`disk`, as read); null when it cannot be priced. */
async function priceApplyingNow(sessionId: string, path: string, disk: OpenedFileView | null): Promise<EditPriceView | null> {
  if (!disk) return null
  const listing = useFilesStore.getState().listing
  const node = listing ? findNode([...listing.instructions, ...listing.memory], path) : null
  await attributeOnce(sessionId)
  const price = await client.request('cache.priceEdit', { sessionId, edit: { kind: editKind(node), path, applyNow: true, charsBefore: disk.text.length, charsAfter: disk.text.length, text: disk.text } })
  return price.ok ? price.value : null
}

/**
 * Applies now the files the session does not send yet (`unapplied`): the files on disk are already the saved ones,
 * so this is files.apply alone. Still busy, they stay listed and the warning says so again. The list is asked for
 * again after.
 */
export async function applyUnappliedNow(projectId: string): Promise<void> {
  const store = useFilesStore.getState()
  const unapplied = store.unapplied
  if (!unapplied) return
  const applied = await client.request('files.apply', { sessionId: unapplied.sessionId, paths: [...unapplied.paths] })
  const names = unapplied.paths.join(', ')
  const stillBusy = !applied.ok && applied.error.code === 'busy'
  if (!stillBusy) store.unappliedFound(null)
  const said = (message: string, warning: boolean, appliedNow = false) => useFilesStore.getState().saveNoted({ kind: 'saved', applied: appliedNow ? 'now' : 'later', message, backupPath: null, ...(warning ? { warning } : {}) })
  if (stillBusy) said(`${names} not applied yet: the session is still busy. Apply it when the turn ends, or stop the turn with Esc.`, true)
  else if (!applied.ok) said(`${names} not applied: ${applied.error.message}`, true)
  else if (applied.value.applied) said(appliedNowWords(`Applied ${names} now`, unapplied.price, unapplied.paths.length), false, true)
  else said(applied.value.message, false)
  if (!stillBusy) await loadUnapplied(unapplied.sessionId, projectId)
}

/** The refusals of files.read that say the file itself can no longer be edited here (edit.ts, paths.ts). */
const unreadableCodes = new Set(['unsupported', 'permission_denied'])

/**
 * Looks at the open file on disk. A change while the draft is untouched is simply taken; a change under an edit is
 * kept aside for the merge, never overwritten.
 */
export async function checkDisk(): Promise<void> {
  const store = useFilesStore.getState()
  const open = store.open
  if (!open || store.save.kind === 'saving') return
  const result = await client.request('files.read', { projectId: open.projectId, path: open.base.path })
  // Only a look at the version still open counts: another project's file of the same name opened meanwhile, or this
  // one saved meanwhile, would otherwise be replaced by the text read before.
  const now = useFilesStore.getState().open
  if (!now || now.base !== open.base) return
  if (!result.ok) {
    // Now a file this view cannot edit (binary, over 1 MB, invalid UTF-8, a link out of the project): said, with why,
    // and the tree read again (the prompt builder skips it now). Any other failure (a dropped connection) says
    // nothing of the file.
    if (!unreadableCodes.has(result.error.code) || now.unreadable === result.error.message) return
    useFilesStore.getState().diskUnreadable(result.error.message)
    void reloadListing(now.projectId)
    return
  }
  if (now.unreadable !== undefined) {
    useFilesStore.getState().diskUnreadable(null)
    void reloadListing(now.projectId)
  }
  const disk = { text: result.value.text, sha256: result.value.sha256, exists: result.value.exists }
  if (disk.sha256 === now.base.sha256) return
  // The file changed on disk: its size and fate in the tree change too.
  void reloadListing(now.projectId)
  if (!disk.exists && now.base.exists) {
    // Deleted while open: the text in the editor is all there is of it now. It is kept (edited or not), and a save
    // writes it back (files.save recreates a file this view opened, docs/inspector.md "Files").
    useFilesStore.getState().fileDeletedOnDisk()
    return
  }
  if (now.draft === now.base.text) {
    useFilesStore.getState().fileOpened(now.projectId, { ...now.base, text: disk.text, sha256: disk.sha256, exists: disk.exists })
    return
  }
  if (now.disk?.sha256 !== disk.sha256) useFilesStore.getState().diskChanged(disk)
}
