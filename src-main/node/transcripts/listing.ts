/**
 * The transcripts panel's listing: every session file under the projects folder, grouped by Claude Code project,
 * with what one read of the file tells (dates, models, requests) and whether it is already imported.
 *
 * Reading every file is the slow part (a year of sessions can be a gigabyte), so descriptions are remembered per
 * file path, size and modification time: listing again reads only what changed.
 */
import { cleanName } from '../../../src-preload/names'
import type { Store } from '../store'
import { skippedCounts } from '../../engine/transcripts/file-stats'
import { describeSession, noConversation, type SessionDescription } from './load'
import { listSessionFiles, type SessionFileInfo } from './locate'
import { importedSessions } from './origins'

export interface ListedTranscript {
  readonly path: string
  readonly sessionId: string
  readonly sizeBytes: number
  readonly modifiedMs: number
  readonly firstAtMs: number | null
  readonly lastAtMs: number | null
  readonly models: ReadonlyArray<string>
  readonly requests: number | null
  readonly subagentFiles: number
  /** The 1.x summary line, else the first prompt. */
  readonly title: string | null
  readonly skippedLines: number
  readonly skippedBy: Readonly<Record<string, number>>
  /** Why the file cannot be imported (unreadable, empty, not a transcript), in words; null when it can. */
  readonly unimportable: string | null
  readonly imported: { readonly sessionId: string; readonly projectId: string; readonly changed: boolean } | null
}

export interface TranscriptListing {
  readonly projectsDir: string
  readonly projects: ReadonlyArray<{ readonly project: string; readonly cwd: string | null; readonly sessions: ReadonlyArray<ListedTranscript> }>
  readonly skippedEntries: number
}

/** Remembers descriptions by path, size and mtime. Bounded: a listing of more files than this re-reads the rest. */
export class DescriptionCache {
  private readonly byPath = new Map<string, { key: string; description: SessionDescription | null }>()
  constructor(private readonly maxEntries = 5_000) {}

  async describe(info: SessionFileInfo, root: string): Promise<SessionDescription | null> {
    const key = `${info.sizeBytes}:${info.modifiedMs}`
    const known = this.byPath.get(info.path)
    if (known?.key === key) return known.description
    const description = await describeSession(info, { root })
    if (this.byPath.size >= this.maxEntries) this.byPath.delete(this.byPath.keys().next().value!)
    this.byPath.set(info.path, { key, description })
    return description
  }
}

/** The file's name in the panel, kept as every name is (decision 0051): its summary line, else its first prompt. */
export function listedTitle(d: SessionDescription | null): string | null {
  return cleanName(d?.title ?? '') || cleanName(d?.firstPrompt ?? '') || null
}

/** Why importing the file would be refused, told from its description (the rule store-import.ts applies), or null. */
function unimportable(d: SessionDescription | null): string | null {
  if (d === null) return 'it could not be read'
  const none = noConversation(d)
  switch (none) {
    case 'empty':
      return 'it is empty'
    case 'no_records':
      return 'none of its lines is a transcript record'
    case 'no_requests':
      return 'it records no API request'
    case null:
      return null
  }
}

export async function listTranscripts(store: Store, projectsDir: string, cache: DescriptionCache, project?: string): Promise<TranscriptListing> {
  const listing = await listSessionFiles(projectsDir, project)
  const imported = new Map<string, { sessionId: string; projectId: string; modifiedMs: number }>()
  for (const s of importedSessions(store)) {
    if (s.ref?.kind === 'claude-code') imported.set(s.ref.path, { sessionId: s.sessionId, projectId: s.projectId, modifiedMs: s.ref.modifiedMs })
  }
  const groups = new Map<string, { project: string; cwd: string | null; sessions: ListedTranscript[] }>()
  for (const info of listing.sessions) {
    const d = await cache.describe(info, projectsDir)
    const mine = imported.get(info.path)
    const group = groups.get(info.project) ?? { project: info.project, cwd: null, sessions: [] }
    group.cwd ??= d?.cwd ?? null
    group.sessions.push({
      path: info.path,
      sessionId: info.sessionId,
      sizeBytes: info.sizeBytes,
      modifiedMs: info.modifiedMs,
      firstAtMs: d?.firstAtMs ?? null,
      lastAtMs: d?.lastAtMs ?? null,
      models: d?.models ?? [],
      requests: d?.requests ?? null,
      subagentFiles: info.subagentPaths.length,
      title: listedTitle(d),
      skippedLines: d?.skippedLines ?? 0,
      skippedBy: skippedCounts(d?.skipped ?? {}),
      unimportable: unimportable(d),
      // A session file written to since its import reads as changed.
      imported: mine === undefined ? null : { sessionId: mine.sessionId, projectId: mine.projectId, changed: mine.modifiedMs !== info.modifiedMs },
    })
    groups.set(info.project, group)
  }
  return { projectsDir, projects: [...groups.values()], skippedEntries: listing.skippedEntries.length }
}
