/**
 * The Files view's state: the project's instruction and memory files as the prompt builder resolved them, the file
 * open in the editor (the version it was opened from, the user's draft, a change seen on disk), the price of the
 * draft for the session's next pass (applied now and at the next compaction), and where a save stands.
 */
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import type { FilesListingView, OpenedFileView, RequestOutput, SessionBlockFiguresView, UnappliedFileView } from '../../src-preload/contract'

export type EditPriceView = NonNullable<RequestOutput<'cache.priceEdit'>>
export type ApplyChoice = 'now' | 'later'

export interface OpenFile {
  readonly projectId: string
  /** What was on disk when the file was opened (or last saved or merged): a save names its sha256. */
  readonly base: OpenedFileView
  readonly draft: string
  /** The file changed on disk while open (seen by polling or refused by a save): its text, for the merge. */
  readonly disk: { readonly text: string; readonly sha256: string | null; readonly exists: boolean } | null
  /** Where the user's text was kept when a save was refused. */
  readonly minePath: string | null
  /** The merge the user is writing (the right side of the merge), kept should the disk change again meanwhile. */
  readonly merging?: string
  /**
   * The file was deleted on disk while open: the user's text stays in the editor, and a save writes it back (the
   * base is then "no file", so the save recreates it rather than meeting a conflict).
   */
  readonly deleted?: boolean
  /**
   * The file on disk can no longer be read as this view's text (now binary, over 1 MB, a link out of the project …):
   * why, as the main process says it. The user's text stays in the editor; it is neither priced nor saved (the
   * prompt builder skips the file, and a save would be refused) until the disk check finds the file readable again.
   */
  readonly unreadable?: string
}

/** A draft the user left unsaved to open another file: where it was opened, the version it was edited from, the text typed. */
export interface UnsavedDraft {
  readonly projectId: string
  readonly base: OpenedFileView
  readonly draft: string
}

export type SaveState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'saving' }
  /** `warning`: saved, but what was asked of it did not happen (an apply refused): said as a warning, not a success. */
  /**
   * `waiting`: the file the message says the session does not send yet (saved for the next compaction, or while the
   * session was busy): the message goes once files.unapplied no longer lists it (a compaction or an apply sent it).
   */
  | { readonly kind: 'saved'; readonly applied: 'now' | 'later' | 'no_session'; readonly message: string; readonly backupPath: string | null; readonly warning?: boolean; readonly waiting?: { readonly sessionId: string; readonly path: string } }
  /** `retry`: whether saving again may succeed (a write that failed may; a text too large never will). */
  | { readonly kind: 'failed'; readonly message: string; readonly retry: boolean }

export interface Unapplied {
  readonly sessionId: string
  readonly paths: ReadonlyArray<string>
  /**
   * How each of `paths` differs (files.unapplied `changes`): a file whose budget cut alone moved is not said to differ
   * on disk. Absent from an older host: every file is then said to differ.
   */
  readonly changes?: ReadonlyArray<UnappliedFileView>
  readonly price: EditPriceView | null
  /**
   * The session block the session sends meanwhile, sized as the listing sizes the files on disk (files.unapplied
   * `sent`): the figures the list's summary gives while these files wait. Absent until asked (or from an older host).
   */
  readonly sent?: SessionBlockFiguresView
}

interface FilesState {
  readonly projectId: string | null
  readonly listing: FilesListingView | null
  readonly loading: boolean
  readonly error: string | null
  readonly open: OpenFile | null
  /**
   * Drafts left unsaved when another file (or project) was opened, by the file's absolute path (a file in ~/.loupe is
   * the same file in every project): opened again, a file comes back with its draft, and as a merge when the file
   * changed on disk meanwhile. Kept for the page's life (not across a reload, which asks first: unsavedCount).
   */
  readonly unsaved: Readonly<Record<string, UnsavedDraft>>
  readonly openError: string | null
  /** The file (absolute path) whose editor should take the keyboard when shown: one just made. */
  readonly editorFocus: string | null
  /**
   * `base`: the file as it is on disk, priced applied now, so the panel can tell the draft's own effect from what
   * applying now sends anyway (changes on disk, a note already due). Null when it could not be priced.
   */
  readonly price: { readonly now: EditPriceView | null; readonly later: EditPriceView | null; readonly base: EditPriceView | null; readonly loading: boolean; readonly error: string | null; readonly forDraft: string | null }
  readonly save: SaveState
  /**
   * The files whose text on disk the session shown does not send yet (files.unapplied): an edit saved for the next
   * compaction, one saved while a turn ran (the apply the save asked for was refused as busy), a change made outside
   * Loupe. The file on disk is already the new one, so there is nothing left to save: this is what lets the user
   * apply it now. `price`: applying them now, as cache.priceEdit prices the file on disk applied now (null until
   * priced, or when it could not be). Asked again whenever it may have changed; gone when the project changes.
   */
  readonly unapplied: Unapplied | null
  /**
   * Apply now or at the next compaction: a preference, deliberately kept from one file to the next and across
   * reloads (persisted below), so someone who applies edits at the next compaction is not asked again for every
   * file. The price panel shows the choice (and both prices) before each save, and the Save button names it.
   */
  readonly choice: ApplyChoice
  /** Width of the file tree, in px (remembered). */
  readonly treeWidth: number

  projectShown(projectId: string): void
  listingLoaded(projectId: string, listing: FilesListingView): void
  listingFailed(message: string): void
  fileOpened(projectId: string, file: OpenedFileView): void
  fileOpenFailed(message: string): void
  /** The editor of the file at `absPath` should take the keyboard; null once it has. */
  editorFocusRequested(absPath: string | null): void
  draftEdited(text: string): void
  diskChanged(disk: { text: string; sha256: string | null; exists: boolean }): void
  /** The open file was deleted on disk: the user's text is kept, to be saved back. */
  fileDeletedOnDisk(): void
  /**
   * The open file on disk can no longer be read (`why`), or can be again (null): a save error from before, which said
   * what the file was then, goes once it is readable or unreadable for another reason.
   */
  diskUnreadable(why: string | null): void
  /** A save of the file at `absPath` found it changed on disk. */
  conflictFound(absPath: string, disk: { text: string; sha256: string | null; exists: boolean }, minePath: string): void
  /** The user merged: the draft stands against the disk's version from now on. */
  mergeAccepted(draft: string): void
  /** The user edited the merge. */
  mergeEdited(text: string): void
  priceLoading(draft: string): void
  priceLoaded(draft: string, now: EditPriceView | null, later: EditPriceView | null, base?: EditPriceView | null): void
  /** Pricing `draft` failed; said only while it is still the draft priced. */
  priceFailed(draft: string, message: string): void
  choiceMade(choice: ApplyChoice): void
  /** What the session sends that differs from the disk, as last asked (null: nothing). */
  /** `askedOf`: the session the answer is about, when it lists nothing (null); a failed answer names none. */
  unappliedFound(unapplied: Unapplied | null, askedOf?: string): void
  /** What became of an apply asked for after the save (`unapplied`); a save under way keeps its own state. */
  saveNoted(state: SaveState): void
  saveStarted(): void
  /** The file at `absPath` was saved as `base` (it may no longer be the open one: its draft was left meanwhile). */
  saveFinished(absPath: string, base: OpenedFileView, state: SaveState): void
  /** The saved note is past: "the next pass sends it" once that pass has gone out. */
  savedNoteCleared(): void
  /** A draft left for another file is given up. */
  draftDiscarded(absPath: string): void
  saveFailed(message: string, retry?: boolean): void
  treeResized(width: number): void
}

const NO_PRICE = { now: null, later: null, base: null, loading: false, error: null, forDraft: null }

/** The open file's text differs from what it was opened from. */
export const edited = (open: OpenFile): boolean => (open.merging ?? open.draft) !== open.base.text

/** A new file's draft as it started, untyped in: nothing of the user's would be lost by letting it go. */
const untouchedStart = (open: OpenFile): boolean => !open.base.exists && !open.deleted && open.base.startingText !== undefined && (open.merging ?? open.draft) === open.base.startingText

/**
 * The unsaved drafts, with the open file's added when it has one (it is about to be replaced). A new file's starting
 * text that was never typed in is not kept: started again, it starts again, and a reload does not ask about it.
 */
function stashed(s: { readonly open: OpenFile | null; readonly unsaved: Readonly<Record<string, UnsavedDraft>> }): Readonly<Record<string, UnsavedDraft>> {
  if (!s.open || !edited(s.open) || untouchedStart(s.open)) return s.unsaved
  return { ...s.unsaved, [s.open.base.absPath]: { projectId: s.open.projectId, base: s.open.base, draft: s.open.merging ?? s.open.draft } }
}

/** How many files hold text the user has not saved: the open one and those left for another. */
export function unsavedCount(s: { readonly open: OpenFile | null; readonly unsaved: Readonly<Record<string, UnsavedDraft>> }): number {
  return Object.keys(stashed(s)).length
}
export const TREE_MIN_PX = 220

export const useFilesStore = create<FilesState>()(
  persist(
    (set) => ({
      projectId: null,
      listing: null,
      loading: false,
      error: null,
      open: null,
      unsaved: {},
      openError: null,
      editorFocus: null,
      price: NO_PRICE,
      save: { kind: 'idle' },
      unapplied: null,
      choice: 'now',
      treeWidth: 320,

      projectShown: (projectId) =>
        set((s) => (s.projectId === projectId ? { loading: true } : { projectId, listing: null, loading: true, error: null, open: null, unsaved: stashed(s), openError: null, price: NO_PRICE, save: { kind: 'idle' }, unapplied: null })),
      listingLoaded: (projectId, listing) => set((s) => (s.projectId === projectId ? { listing, loading: false, error: null } : {})),
      listingFailed: (message) => set({ loading: false, error: message }),
      fileOpened: (projectId, file) =>
        set((s) => {
          const unsaved = { ...stashed(s) }
          const kept = unsaved[file.absPath]
          delete unsaved[file.absPath]
          const open: OpenFile = kept
            ? {
                projectId,
                base: kept.base,
                draft: kept.draft,
                // Changed on disk since the draft was left: the merge shows both, as for a change seen while open.
                disk: kept.base.sha256 === file.sha256 ? null : { text: file.text, sha256: file.sha256, exists: file.exists },
                minePath: null,
              }
            : // A file not written yet starts as a draft of its starting text: the first save creates it.
              { projectId, base: file, draft: file.exists ? file.text : (file.startingText ?? file.text), disk: null, minePath: null }
          return { open, unsaved, openError: null, price: NO_PRICE, save: { kind: 'idle' } }
        }),
      fileOpenFailed: (message) => set({ openError: message }),
      editorFocusRequested: (absPath) => set({ editorFocus: absPath }),
      draftEdited: (text) => set((s) => (s.open ? { open: { ...s.open, draft: text }, save: s.save.kind === 'saved' || s.save.kind === 'failed' ? { kind: 'idle' } : s.save } : {})),
      diskChanged: (disk) => set((s) => (s.open ? { open: { ...s.open, disk } } : {})),
      fileDeletedOnDisk: () =>
        set((s) => {
          if (!s.open) return {}
          const { merging, ...open } = s.open
          // The text kept is the one being written: the merge when one was open, else the draft.
          return { open: { ...open, draft: merging ?? s.open.draft, base: { ...s.open.base, text: '', sha256: null, exists: false }, disk: null, minePath: null, deleted: true }, save: { kind: 'idle' } }
        }),
      diskUnreadable: (why) =>
        set((s) => {
          if (!s.open || (s.open.unreadable ?? null) === why) return {}
          const { unreadable: _, ...open } = s.open
          // A save error said what the file was then: readable again, or unreadable for another reason, it is past.
          const past = s.save.kind === 'failed' && (why === null || s.open.unreadable !== undefined)
          return { open: why === null ? open : { ...open, unreadable: why }, ...(past ? { save: { kind: 'idle' as const } } : {}) }
        }),
      // For a file left meanwhile, its draft stays as it was: opened again, the disk's change makes it the merge.
      conflictFound: (absPath, disk, minePath) => set((s) => (s.open?.base.absPath === absPath ? { open: { ...s.open, disk, minePath }, save: { kind: 'idle' } } : { save: { kind: 'idle' } })),
      mergeAccepted: (draft) =>
        set((s) => {
          if (!s.open?.disk) return {}
          const disk = s.open.disk
          const { merging: _, ...open } = s.open
          // A save refused before the merge (the file was binary, or changed) is past: the merge stands against the
          // disk's text now.
          return { open: { ...open, base: { ...s.open.base, text: disk.text, sha256: disk.sha256, exists: disk.exists }, draft, disk: null, deleted: false }, ...(s.save.kind === 'failed' ? { save: { kind: 'idle' as const } } : {}) }
        }),
      mergeEdited: (text) => set((s) => (s.open?.disk ? { open: { ...s.open, merging: text } } : {})),
      priceLoading: (draft) => set((s) => ({ price: { ...s.price, loading: true, error: null, forDraft: draft } })),
      priceLoaded: (draft, now, later, base = null) => set((s) => (s.price.forDraft === draft ? { price: { now, later, base, loading: false, error: null, forDraft: draft } } : {})),
      priceFailed: (draft, message) => set((s) => (s.price.forDraft === draft ? { price: { ...s.price, loading: false, error: message } } : {})),
      choiceMade: (choice) => set({ choice }),
      unappliedFound: (unapplied, askedOf = unapplied?.sessionId) =>
        set((s) => {
          const waiting = s.save.kind === 'saved' ? s.save.waiting : undefined
          const sent = waiting !== undefined && askedOf === waiting.sessionId && !(unapplied?.paths.includes(waiting.path) ?? false)
          return sent ? { unapplied, save: { kind: 'idle' } } : { unapplied }
        }),
      saveNoted: (state) => set((s) => (s.save.kind === 'saving' ? {} : { save: state })),
      saveStarted: () => set({ save: { kind: 'saving' } }),
      savedNoteCleared: () => set((s) => (s.save.kind === 'saved' ? { save: { kind: 'idle' } } : {})),
      saveFinished: (absPath, base, state) =>
        set((s) => {
          if (s.open?.base.absPath === absPath) return { open: { ...s.open, base, disk: null, minePath: null, deleted: false }, save: state }
          // Left for another file while it was saving: what was saved is its draft, so nothing of it is unsaved.
          const left = s.unsaved[absPath]
          if (!left) return { save: state }
          const unsaved = { ...s.unsaved }
          if (left.draft === base.text) delete unsaved[absPath]
          else unsaved[absPath] = { ...left, base }
          return { unsaved, save: state }
        }),
      draftDiscarded: (absPath) =>
        set((s) => {
          const unsaved = { ...s.unsaved }
          delete unsaved[absPath]
          return { unsaved }
        }),
      saveFailed: (message, retry = true) => set({ save: { kind: 'failed', message, retry } }),
      treeResized: (width) => set({ treeWidth: Math.max(TREE_MIN_PX, Math.round(width)) }),
    }),
    { name: 'loupe.files', version: 1, partialize: (s) => ({ choice: s.choice, treeWidth: s.treeWidth }) },
  ),
)
