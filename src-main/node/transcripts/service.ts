/**
 * What the `transcripts.*` requests do, with the Node I/O kept here (the rpc layer stays transport-agnostic): list
 * the sessions under a projects folder, import one or all into the store, read an imported session's totals back,
 * and continue one as a Loupe session.
 */
import { realpath, stat } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { errorCode } from '../fs/regular-file'
import type { Session } from '../../../src-preload/contract'
import type { Store } from '../store'
import { continueImported } from './continue'
import { DescriptionCache, listTranscripts, type TranscriptListing } from './listing'
import { defaultProjectsDir, listSessionFiles } from './locate'
import { importTranscript, TranscriptImportError, type StoreImportResult } from './store-import'
import { importedTotals, type ImportedTotals } from './store-totals'

export interface TranscriptServiceDeps {
  readonly store: Store
  readonly now: () => number
  readonly homeDir: string
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Stops a session's runtime before an earlier import of a grown file is replaced. */
  readonly dropSession?: (sessionId: string) => Promise<void>
}

export interface ImportOutcome {
  readonly status: StoreImportResult['status']
  readonly sessionId: string
  readonly projectId: string
  readonly title: string
  readonly skippedLines: number
  readonly totals: ImportedTotals
  /** The earlier import of a grown file, deleted by this one (`status: 'replaced'`). */
  readonly replaced?: { readonly sessionId: string; readonly projectId: string }
}

export class TranscriptService {
  private readonly descriptions = new DescriptionCache()

  constructor(private readonly deps: TranscriptServiceDeps) {}

  projectsDir(folder?: string): string {
    return folder ?? defaultProjectsDir(this.deps.env ?? process.env, this.deps.homeDir)
  }

  /**
   * The folder asked for, which must be an absolute path to a folder (a relative one would be read against wherever
   * the app was started); none asked for is the default, which may well not exist yet (nothing to list then).
   */
  async checkedFolder(folder?: string): Promise<string> {
    if (folder === undefined) return this.projectsDir()
    if (folder === '~' || folder.startsWith('~/')) return this.checkedFolder(join(this.deps.homeDir, folder.slice(1)))
    if (!isAbsolute(folder)) throw new TranscriptImportError('not_a_file', `${folder} is not an absolute path: give the whole path of the Claude Code projects folder`)
    const info = await stat(folder).catch((err: unknown) => {
      const code = errorCode(err)
      if (code === 'ENOENT' || code === 'ENOTDIR') return null
      throw new TranscriptImportError('unreadable', `${folder} cannot be read: ${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : err instanceof Error ? err.message : String(err)}`)
    })
    if (info === null) throw new TranscriptImportError('not_found', `No folder at ${folder}`)
    if (!info.isDirectory()) throw new TranscriptImportError('not_a_file', `${folder} is not a folder`)
    return folder
  }

  async list(folder?: string): Promise<TranscriptListing> {
    return listTranscripts(this.deps.store, await this.checkedFolder(folder), this.descriptions)
  }

  /** Imports one session file, which must lie inside the projects folder (after resolving symlinks). */
  async import(path: string, folder?: string, projectId?: string): Promise<ImportOutcome> {
    return this.importUnder(path, await this.realFolder(folder), projectId)
  }

  /** The projects folder, checked, with its links resolved (the default one as it is when it does not exist). */
  private async realFolder(folder?: string): Promise<string> {
    const projects = await this.checkedFolder(folder)
    return realpath(projects).catch(() => projects)
  }

  private async importUnder(path: string, root: string, projectId?: string): Promise<ImportOutcome> {
    const { store } = this.deps
    const result = await importTranscript(store, path, {
      now: this.deps.now(),
      root,
      ...(projectId !== undefined ? { projectId } : {}),
      ...(this.deps.dropSession ? { beforeReplace: this.deps.dropSession } : {}),
    })
    return {
      status: result.status,
      sessionId: result.sessionId,
      projectId: result.projectId,
      title: result.title,
      skippedLines: result.summary.skipped_lines,
      totals: importedTotals(store, result.sessionId)!,
      ...(result.replaced ? { replaced: result.replaced } : {}),
    }
  }

  /** Imports every session of the folder (or of one Claude Code project in it), oldest first; failures are listed. */
  async importAll(folder?: string, project?: string): Promise<{ results: ImportOutcome[]; failed: Array<{ path: string; message: string }>; skipped: Array<{ path: string; message: string }> }> {
    const root = await this.realFolder(folder)
    const listing = await listSessionFiles(root, project)
    const results: ImportOutcome[] = []
    const failed: Array<{ path: string; message: string }> = []
    // A file that holds no conversation (empty, not a transcript, not a regular file) always fails: it is left out,
    // not reported as a failure on every Import all (the panel's listing marks it already).
    const skipped: Array<{ path: string; message: string }> = []
    for (const info of [...listing.sessions].reverse()) {
      try {
        results.push(await this.importUnder(info.path, root))
      } catch (err) {
        const entry = { path: info.path, message: err instanceof Error ? err.message : String(err) }
        if (err instanceof TranscriptImportError && err.kind === 'not_a_file') skipped.push(entry)
        else failed.push(entry)
      }
    }
    return { results, failed, skipped }
  }

  totals(sessionId: string): ImportedTotals | null {
    return importedTotals(this.deps.store, sessionId)
  }

  continue(sessionId: string, projectId?: string): Session {
    return continueImported(this.deps.store, sessionId, { now: this.deps.now(), ...(projectId !== undefined ? { projectId } : {}) })
  }
}
