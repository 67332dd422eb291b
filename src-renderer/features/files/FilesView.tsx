/**
 * The Files view (docs/inspector.md "Files"): the project's instruction and memory files as the prompt builder
 * resolved them, each editable in Monaco, with the price of the edit for the session's next pass shown before it is
 * saved, and the choice to apply it now or at the next compaction. A change made on disk while a file is open is
 * offered as a merge, never overwritten. Clicking a file label in the inspector opens that file here.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import type { FileNodeView } from '../../../src-preload/contract'
import { useMonaco } from '../../monaco'
import { client } from '../../platform/client'
import { edited, TREE_MIN_PX, useFilesStore, type UnsavedDraft } from '../../state/files'
import { useInspectorStore } from '../../state/inspector'
import { useProjectsStore } from '../../state/projects'
import { selectChat, useChatStore } from '../../state/chat'
import { findSession, useSessionsStore } from '../../state/sessions'
import { useSlow } from '../palette/use-slow'
import { unsavableDraft } from './draft-limits'
import { afterBreakpoints, applyUnappliedNow, checkDisk, checkUnapplied, draftsOffTree, editKind, findNode, loadListing, loadUnapplied, onUnappliedMayChange, openFile, priceDraft, reloadListing, saveOpenFile, startNewFile } from './actions'
import { FileTree } from './components/FileTree'
import { MarkdownEditor } from './components/MarkdownEditor'
import { MergeEditor } from './components/MergeEditor'
import { PricePanel } from './components/PricePanel'
import { unappliedWords } from './price-words'
import { UnopenableNote } from './components/UnopenableNote'
import { useUnopenableStore } from './unopenable'
import { copyText } from '../../ui/clipboard'
import { WithNames, PathName } from '../../ui/Isolated'
import { treeWidthLimit, treeWidthShown, useWidth } from './tree-width'
import { Splitter } from '../inspector/components/Splitter'
import './files.css'

/** How often an open file is compared with the disk (a small read; the view is open only while it is on screen). */
const DISK_POLL_MS = 2000
/** How often the files the session does not send as on disk are looked for (a read of its files; priced only when they change). */
const UNAPPLIED_POLL_MS = 5000
/** Pricing waits for a pause in typing. */
const PRICE_DEBOUNCE_MS = 350

export function FilesView({ projectId, session }: { projectId: string; session: { id: string; title: string } | null }) {
  const listing = useFilesStore((s) => (s.projectId === projectId ? s.listing : null))
  const error = useFilesStore((s) => s.error)
  const loading = useSlow(useFilesStore((s) => s.loading))
  const open = useFilesStore((s) => s.open)
  const openError = useFilesStore((s) => s.openError)
  // The list gives way in a narrow view, so the open file keeps its room; the user's width comes back with the room.
  const viewRef = useRef<HTMLDivElement>(null)
  const viewWidth = useWidth(viewRef)
  const treeWidth = treeWidthShown(useFilesStore((s) => s.treeWidth), viewWidth)
  const treeLimit = viewWidth === null ? Infinity : treeWidthLimit(viewWidth)
  const unsavedDrafts = useFilesStore((s) => s.unsaved)
  const unsaved = useMemo(() => {
    const paths = new Set(Object.keys(unsavedDrafts))
    if (open && edited(open)) paths.add(open.base.absPath)
    return paths
  }, [unsavedDrafts, open])
  // Drafts the tree cannot open: a new file's, not written yet (reopened from its row), and those of files the
  // listing no longer shows (an import removed, a file grown too large), to copy or give up.
  const offTree = useMemo(() => (listing ? draftsOffTree(listing, Object.values(unsavedDrafts), projectId) : { newFiles: [], stranded: [] }), [listing, unsavedDrafts, projectId])
  // While files on disk wait for the session shown, the list's summary sizes the block it sends (budget-words.ts).
  const unapplied = useFilesStore((s) => (session && s.unapplied?.sessionId === session.id ? s.unapplied : null))
  const waiting = useMemo(() => (unapplied?.sent && unapplied.paths.length > 0 ? { paths: unapplied.paths, sent: unapplied.sent } : null), [unapplied])
  const fileRequest = useInspectorStore((s) => s.fileRequest)
  // The file picked last, when this view cannot edit it (too large, binary …): a note shows in the editor's place.
  const note = useUnopenableStore((s) => s.file)
  // A folder of Claude Code's logs or of the proxy's captures: its own files are shown, never written (the main
  // process refuses a save there too); Loupe's own files (user memory, global instructions) stay editable.
  const project = useProjectsStore((s) => s.projects.find((p) => p.id === projectId) ?? null)
  const holds = project?.notWorkingFolder && open && listing && open.base.absPath.startsWith(`${listing.root}/`) ? project.notWorkingFolder : null

  useEffect(() => {
    void loadListing(projectId)
  }, [projectId])

  // Back from another program (an editor that changed a file, a git checkout): the listing is read again, so the
  // sizes and fates in the tree are the disk's. Nothing on disk is watched; coming back is when it matters.
  useEffect(() => {
    const again = () => void reloadListing(projectId)
    window.addEventListener('focus', again)
    return () => window.removeEventListener('focus', again)
  }, [projectId])

  // A file label clicked in the inspector: open it here.
  useEffect(() => {
    if (!fileRequest) return
    useInspectorStore.getState().fileOpened()
    void openFile(projectId, fileRequest.path)
  }, [fileRequest, projectId])

  const openPath = open?.base.path ?? null
  useEffect(() => {
    if (!openPath) return
    // Looked at once when the view comes back (from Chat, say): the file may have changed while it was away.
    void checkDisk()
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void checkDisk()
    }, DISK_POLL_MS)
    window.addEventListener('focus', checkDisk)
    return () => {
      clearInterval(timer)
      window.removeEventListener('focus', checkDisk)
    }
  }, [openPath])

  const node = useMemo(() => (listing && open ? (findNode([...listing.instructions, ...listing.memory], open.base.path) ?? null) : null), [listing, open])

  return (
    <div ref={viewRef} className="view-page split files" data-testid="files-view">
      <aside className="files-side" style={{ width: treeWidth }}>
        <header className="view-head">
          <h1>Files</h1>
          {loading && <span className="muted">reading…</span>}
        </header>
        {error && (
          <p className="error-box" role="alert">
            <strong>{error}</strong> Check that the project folder still exists, then open the view again.
          </p>
        )}
        {listing && <FileTree listing={listing} waiting={waiting} openPath={note?.path ?? open?.base.path ?? null} unsaved={unsaved} onOpen={(p) => void openFile(projectId, p)} onCreate={(p) => void startNewFile(projectId, p)} />}
        {offTree.newFiles.length > 0 && <StrandedDrafts drafts={offTree.newFiles} onOpen={(p) => void startNewFile(projectId, p)} />}
        {offTree.stranded.length > 0 && <StrandedDrafts drafts={offTree.stranded} />}
      </aside>
      <TreeSplitter width={treeWidth} limit={treeLimit} />
      <section className="files-main" aria-label="Open file">
        {session && <UnappliedBar projectId={projectId} session={session} />}
        {openError && !note && (
          <p className="error-box" role="alert">
            <strong>{openError}</strong>
          </p>
        )}
        {note ? (
          <UnopenableNote file={note} />
        ) : open ? (
          <OpenFileEditor session={session} node={node} holds={holds ?? null} />
        ) : (
          <div className="view-empty">
            <h2>Pick a file to edit</h2>
            <p>These are the files that shape every pass of this project's sessions. Before you save, the view shows which block of the request moves and what the next pass will pay for it.</p>
          </div>
        )}
      </section>
    </div>
  )
}

/**
 * The files whose text on disk the session does not send yet (an edit saved for the next compaction or while a turn
 * ran, a change made outside Loupe), with what applying them now costs, and the button to. Asked again whenever it
 * may have changed: a save (files.changed), a pass, a compaction, the window coming back (another editor), the
 * session turning idle. Nothing unapplied, nothing shown. Only for a session of Loupe's: an imported or captured one
 * sends no pass.
 */
function UnappliedBar({ projectId, session: shown }: { projectId: string; session: { id: string } }) {
  const origin = useSessionsStore((s) => findSession(s, shown.id)?.origin ?? 'loupe')
  const sessionId = origin === 'loupe' ? shown.id : null
  const unapplied = useFilesStore((s) => (sessionId && s.unapplied?.sessionId === sessionId ? s.unapplied : null))
  const busy = useChatStore((s) => {
    const chat = selectChat(sessionId)(s)
    return chat.running || chat.listedActivity !== null
  })
  const [applying, setApplying] = useState(false)
  useEffect(() => {
    // While a turn runs the answer could change under it (a compaction reads the disk): asked again once idle.
    if (!sessionId || busy) return
    const again = () => void loadUnapplied(sessionId, projectId)
    again()
    const off = onUnappliedMayChange(sessionId, projectId, again)
    window.addEventListener('focus', again)
    // A change made outside Loupe while the window keeps the focus: looked for as the open file's disk is.
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void checkUnapplied(sessionId, projectId)
    }, UNAPPLIED_POLL_MS)
    return () => {
      off()
      window.removeEventListener('focus', again)
      clearInterval(timer)
    }
  }, [sessionId, busy, projectId])
  if (!unapplied) return null
  const words = unappliedWords(unapplied.paths, unapplied.price, busy, unapplied.changes)
  const apply = () => {
    setApplying(true)
    void applyUnappliedNow(projectId).finally(() => setApplying(false))
  }
  return (
    <div className="files-pending-apply" role="status" data-testid="pending-apply" title={words.why}>
      {/* First, to float at the top right with the words around it (files.css). */}
      <button type="button" disabled={busy || applying} onClick={apply} data-testid="apply-unapplied">
        {applying ? 'Applying…' : 'Apply now'}
      </button>
      <span className="small">
        <strong>Not applied yet:</strong> <WithNames text={words.what} names={unapplied.paths} dir="ltr" /> <span className="muted">{words.cost}</span>{' '}
        {/* Dropped in a narrow pane (files.css), where it would take the editor's room; kept as the bar's tooltip. */}
        <span className="muted files-pending-why">{words.why}</span>
      </span>
    </div>
  )
}

/**
 * Unsaved drafts the tree cannot open. With `onOpen`, new files not written yet: each can be opened again (its draft
 * comes back), copied or given up. Without, edits to files the listing no longer shows: the text can be copied, or
 * the edit given up.
 */
function StrandedDrafts({ drafts, onOpen }: { drafts: ReadonlyArray<UnsavedDraft>; onOpen?: (path: string) => void }) {
  const [note, setNote] = useState<string | null>(null)
  const copy = async (d: UnsavedDraft) => setNote(await copyText(d.draft, `Copied your text of ${d.base.path}`))
  const heading = onOpen ? 'Unsaved new files' : 'Unsaved edits, file no longer listed'
  return (
    <section className="files-stranded" aria-label={onOpen ? 'Unsaved new files, not written yet' : 'Unsaved edits to files no longer listed'} data-testid={onOpen ? 'new-file-drafts' : 'stranded-drafts'}>
      <h2>{heading}</h2>
      <ul>
        {drafts.map((d) => (
          <li key={d.base.absPath}>
            <span className="files-node-path" title={d.base.absPath}>
              <PathName path={d.base.path} />
            </span>
            {onOpen && <span className="muted small files-stranded-what">new file, not saved yet</span>}
            {onOpen && (
              <button type="button" onClick={() => onOpen(d.base.path)}>
                Open
              </button>
            )}
            <button type="button" onClick={() => void copy(d)}>
              Copy text
            </button>
            <button type="button" onClick={() => useFilesStore.getState().draftDiscarded(d.base.absPath)}>
              Discard
            </button>
          </li>
        ))}
      </ul>
      {note && (
        <p className="muted small" role="status">
          <WithNames text={note} names={drafts.map((d) => d.base.path)} dir="ltr" />
        </p>
      )}
    </section>
  )
}

/** `limit`: the widest the list may be in this view; a drag past it is kept at it, not remembered wider than drawn. */
function TreeSplitter({ width, limit }: { width: number; limit: number }) {
  // Before the view is measured there is no limit yet: the width drawn is the greatest said.
  return <Splitter className="splitter-v" edge="right" size={width} min={TREE_MIN_PX} max={Number.isFinite(limit) ? limit : width} step={20} onResize={(to) => useFilesStore.getState().treeResized(Math.min(to, limit))} label="Resize the file list" />
}

const focusTaken = () => useFilesStore.getState().editorFocusRequested(null)

/** A message as a sentence: ended with a period when it has no closing mark (it often ends with a path). */
export const sentence = (message: string) => (/[.!?…]$/.test(message.trim()) ? message : `${message.trim()}.`)

/** `holds`: what the project's folder holds when it is not a working folder; its files are then shown, not saved. */
function OpenFileEditor({ session: shown, node, holds }: { session: { id: string; title: string } | null; node: FileNodeView | null; holds: string | null }) {
  // A session imported from Claude Code or captured by the proxy takes no messages: Loupe sends no pass in it, so an
  // edit has no price there and nothing to apply to. Such a session is not the one the edit is for: the file is
  // simply saved, for the first pass of a new session.
  const origin = useSessionsStore((s) => (shown ? (findSession(s, shown.id)?.origin ?? 'loupe') : null))
  const session = shown && origin === 'loupe' ? shown : null
  const readOnlySession = shown && origin !== 'loupe' ? { title: shown.title, origin: origin === 'captured' ? ('captured' as const) : ('transcript' as const) } : null
  const monaco = useMonaco()
  const open = useFilesStore((s) => s.open)!
  // Sessions of Loupe's in the project: with none selected, what a save does to them is said (price-words.ts).
  const loupeSessions = useSessionsStore((s) => (s.byProject[open.projectId] ?? []).filter((x) => (x.origin ?? 'loupe') === 'loupe').length)
  const price = useFilesStore((s) => s.price)
  const choice = useFilesStore((s) => s.choice)
  const save = useFilesStore((s) => s.save)
  const takeFocus = useFilesStore((s) => s.editorFocus !== null && s.editorFocus === s.open?.base.absPath)
  const saving = useSlow(save.kind === 'saving')
  const dirty = open.draft !== open.base.text || !open.base.exists
  // A draft the main process would refuse (over 1 MB, a NUL): said before saving, neither priced nor saveable.
  const unsavable = useMemo(() => unsavableDraft(open.draft), [open.draft])
  // A save tried on such a draft anyway (Ctrl/Cmd-S): refused in the box that already says why (an edit clears it).
  const refusedUnsavable = save.kind === 'failed' && unsavable !== null && dirty && holds === null
  const store = useFilesStore.getState

  // A nested instruction file (or its import) is sent after the breakpoints: an edit to it moves nothing cached, so
  // it is neither priced nor applied (actions.ts afterBreakpoints).
  const afterBreaks = afterBreakpoints(node)
  // A file not written yet: what the listing offers to create it as (memory is priced as memory).
  const creatable = useFilesStore((s) => s.listing?.creatable.find((c) => c.path === s.open?.base.path))

  // The file on disk can no longer be read (binary, a link out of the project …): the prompt builder skips it, so the
  // draft has no price, and a save would be refused; the text stays until the file is readable again.
  const unreadable = open.unreadable ?? null

  // The draft the price shown (or being made) is for: none once the file is opened again, its draft restored.
  const pricedFor = useFilesStore((s) => s.price.forDraft)
  // The cache a price was read against moves on with every pass of the session (a pre-warm too): counted, so the
  // draft is priced again after one, instead of its price going stale while the view stays open.
  const [passesSeen, setPassesSeen] = useState(0)
  useEffect(() => (session ? client.on('pass.completed', (e) => e.sessionId === session.id && setPassesSeen((n) => n + 1)) : undefined), [session])
  const pricedAtPasses = useRef(-1)
  useEffect(() => {
    if (!session || !dirty || afterBreaks || unsavable || unreadable) return
    // Priced (or being priced) for this draft since the last pass: nothing to do. A file opened again clears its
    // price, and its draft, unchanged, is priced again here.
    if (pricedFor === open.draft && pricedAtPasses.current === passesSeen) return
    const timer = setTimeout(() => {
      pricedAtPasses.current = passesSeen
      void priceDraft(session.id, open.base.path, editKind(node, creatable), open.base.text, open.draft)
    }, PRICE_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [session, dirty, open.base.path, open.base.text, open.draft, node, creatable, afterBreaks, unsavable, unreadable, pricedFor, passesSeen])

  // Saved, the button is disabled (nothing left to save) and would drop the keyboard on the page: it goes back to
  // the text instead.
  // "Applied now: the next pass sends it" is true until that pass goes out; then the note goes.
  const appliedNow = save.kind === 'saved' && save.applied === 'now'
  useEffect(() => {
    if (!appliedNow || !session) return
    return client.on('pass.completed', (e) => e.sessionId === session.id && e.pass.kind === 'main' && store().savedNoteCleared())
  }, [appliedNow, session, store])

  const doSave = () =>
    void saveOpenFile(session?.id ?? null, choice).then(() => {
      const at = document.activeElement
      if (at === document.body || (at instanceof HTMLButtonElement && at.disabled)) store().editorFocusRequested(open.base.absPath)
    })

  return (
    <div className="files-editor-pane">
      <div className="files-toolbar">
        <strong className="files-path" data-testid="open-path" title={open.base.absPath}>
          <PathName path={open.base.path} />
        </strong>
        {node && <span className={`chip ${node.status === 'included' ? 'ok' : node.status === 'skipped' || node.status === 'omitted' ? 'bad' : ''}`}>{node.status}</span>}
        {open.deleted ? <span className="chip bad">deleted on disk</span> : !open.base.exists && <span className="chip accent">new file</span>}
        <span className="muted small files-abspath" title={open.base.absPath}>
          <PathName path={open.base.absPath} />
        </span>
        {/* Undoable in the editor (decision 0046): the keyboard goes back to the text, where Ctrl+Z brings the edit back
            (the button goes once the text is the saved one). */}
        {dirty && open.base.exists && (
          <button
            type="button"
            title="Go back to the saved text (Ctrl+Z in the editor brings your edit back)"
            onClick={() => {
              store().draftEdited(open.base.text)
              store().editorFocusRequested(open.base.absPath)
            }}
          >
            Revert
          </button>
        )}
        {!holds && (
          <button type="button" className="primary" disabled={!dirty || save.kind === 'saving' || open.disk !== null || unsavable !== null || unreadable !== null} title={unreadable ? `Not saved while the file on disk cannot be read: ${unreadable}` : undefined} onClick={doSave} data-testid="save-file">
            {saving ? 'Saving…' : !session || afterBreaks ? (open.deleted ? 'Save (recreate the file)' : 'Save') : choice === 'now' ? 'Save and apply now' : 'Save for the next compaction'}
          </button>
        )}
      </div>
      {holds && (
        <p className="files-read-only muted small" role="note" data-testid="files-read-only">
          Shown, not edited: this folder holds {holds}, not a project&apos;s files, and Loupe writes nothing in it.
        </p>
      )}
      {open.deleted && !holds && (
        <p className="warn-box" role="alert" data-testid="file-deleted">
          <strong>
            <PathName path={open.base.path} /> was deleted on disk.
          </strong> Your text is still in the editor: save it to write the file again, or open another file to leave it (the text is kept as an unsaved draft).
        </p>
      )}
      {unreadable && !holds && !open.disk && (
        <p className="warn-box" role="alert" data-testid="file-unreadable">
          <strong>
            <PathName path={open.base.path} /> can no longer be read on disk.
          </strong> {sentence(unreadable)} The prompt builder skips it now, so nothing is priced, and Save waits until it can be read again. Your text is still in the editor.
        </p>
      )}
      {open.disk && monaco ? (
        // Keyed by the file and the disk's version: another file's merge (or a newer change) starts from its own text.
        <MergePanel key={`${open.base.absPath}\n${open.disk.sha256 ?? 'missing'}`} />
      ) : (
        <>
          {monaco ? (
            <MarkdownEditor monaco={monaco} value={open.draft} onChange={(t) => store().draftEdited(t)} onSave={holds ? undefined : doSave} label={`${holds ? 'Read' : 'Edit'} ${open.base.path}`} testId="file-editor" takeFocus={takeFocus} onFocused={focusTaken} readOnly={holds !== null} />
          ) : (
            <p className="muted">Loading the editor…</p>
          )}
          {!holds && dirty && unsavable && (
            // A save tried anyway (Ctrl/Cmd-S) is refused in this box, not in a second one under it saying the same.
            <p className="warn-box" role={refusedUnsavable ? 'alert' : 'status'} data-testid="draft-unsavable" data-kind={unsavable.kind}>
              {refusedUnsavable ? (
                <strong data-testid="save-failed">
                  <WithNames text={`${open.base.path} was not saved: this text cannot be saved.`} names={[open.base.path]} dir="ltr" />
                </strong>
              ) : (
                <strong>This text cannot be saved.</strong>
              )}{' '}
              {unsavable.message}
              {refusedUnsavable && ' Your text is still in the editor.'}
            </p>
          )}
          {!holds && !unsavable && !unreadable && afterBreaks && (
            <p className="files-price muted" data-testid="price-after-breakpoints">
              <WithNames text={afterBreaks} names={[open.base.path]} dir="ltr" />
            </p>
          )}
          {!holds && !unsavable && !unreadable && !afterBreaks && <PricePanel sessionTitle={session?.title ?? null} readOnlySession={readOnlySession} path={open.base.path} loupeSessions={loupeSessions} dirty={dirty} price={price} choice={choice} draft={open.draft} onChoose={(c) => store().choiceMade(c)} />}
        </>
      )}
      {save.kind === 'saved' && (
        <p className={`files-saved${save.warning ? ' warning' : ''}`} role="status" data-testid="save-status" data-applied={save.applied} data-warning={save.warning ? 'true' : undefined}>
          <WithNames text={save.message} names={[open.base.path]} dir="ltr" />
          {save.backupPath && (
            <span className="muted small">
              {' '}
              The previous version is kept in <PathName path={save.backupPath} />.
            </span>
          )}
        </p>
      )}
      {save.kind === 'failed' && !refusedUnsavable && (
        <p className="error-box" role="alert" data-testid="save-failed">
          <strong>
            <WithNames text={sentence(save.message)} names={[open.base.path]} dir="ltr" />
          </strong> {save.retry ? 'Your text is still in the editor; try again, or copy it somewhere safe.' : 'Your text is still in the editor.'}
        </p>
      )}
    </div>
  )
}

function MergePanel() {
  const monaco = useMonaco()
  const open = useFilesStore((s) => s.open)!
  // The user's text as it was when the change on disk was seen (or the merge they were writing, when the disk changed
  // again); the merge starts from it.
  const [mine] = useState(open.merging ?? open.draft)
  const [merged, setMerged] = useState(open.merging ?? open.draft)
  const disk = open.disk!
  const store = useFilesStore.getState
  // The buttons go with the merge: the keyboard goes back to the file's editor, not to the view's heading.
  const accept = (text: string) => {
    store().mergeAccepted(text)
    store().editorFocusRequested(open.base.absPath)
  }
  if (!monaco) return null
  return (
    <div className="files-merge" data-testid="merge-panel">
      <p className="warn-box">
        <strong>
          <PathName path={open.base.path} /> changed on disk while you were editing it.
        </strong> Nothing was overwritten. Left: the file as it is on disk now. Right: your version — edit it into the merge you want, then keep it.
        {open.minePath && (
          <span className="muted small">
            {' '}
            Your text is also kept in <PathName path={open.minePath} />.
          </span>
        )}
        <span className="muted small files-merge-narrow-note"> The file list comes back once the merge is kept or the disk version taken.</span>
      </p>
      <MergeEditor
        monaco={monaco}
        disk={disk.text}
        mine={mine}
        onChange={(text) => {
          setMerged(text)
          store().mergeEdited(text)
        }}
      />
      <div className="files-toolbar">
        <button type="button" className="primary" onClick={() => accept(merged)} data-testid="keep-merge">
          Keep the merge (then save)
        </button>
        <button type="button" onClick={() => accept(disk.text)}>
          Take the disk version
        </button>
      </div>
    </div>
  )
}
