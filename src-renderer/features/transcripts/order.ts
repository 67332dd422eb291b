/**
 * The order the panel lists Claude Code sessions in: by the time the "last active" column shows (the last line
 * written, else the file's modification time), newest first; projects by their newest session. The host lists
 * files by modification time, which a copied or touched file changes without any new activity.
 */
import type { TranscriptFileView } from '../../../src-preload/contract'
import type { TranscriptListingView } from '../../state/transcripts'

/** When the session was last active: what the "last active" column shows. */
export function lastActiveMs(s: Pick<TranscriptFileView, 'lastAtMs' | 'modifiedMs'>): number {
  return s.lastAtMs ?? s.modifiedMs
}

type Project = TranscriptListingView['projects'][number]

const newestOf = (p: Project) => p.sessions.reduce((m, s) => Math.max(m, lastActiveMs(s)), -Infinity)

/** The listing with each project's sessions newest first, and the projects by their newest session. */
export function newestFirst(projects: ReadonlyArray<Project>): Project[] {
  return projects
    .map((p) => ({ ...p, sessions: [...p.sessions].sort((a, b) => lastActiveMs(b) - lastActiveMs(a) || a.path.localeCompare(b.path)) }))
    .sort((a, b) => newestOf(b) - newestOf(a) || a.project.localeCompare(b.project))
}

/** The tooltip of a session's title: the whole title, then the file it was read from. */
export function sessionTooltip(s: Pick<TranscriptFileView, 'title' | 'sessionId' | 'path'>): string {
  return `${s.title ?? s.sessionId}\n${s.path}`
}
