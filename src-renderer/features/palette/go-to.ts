/**
 * Where the palette can go by name, from the keyboard: each other session of the open project (in the sidebar's
 * order, newest first), then each other project. Pure: commands.ts makes them commands, listed after the actions so
 * the palette opens on what to do; a word of a session's name finds it. Sessions that share a name say when each was
 * made, as their sidebar rows do (decision 0068).
 */
import { madeTimes, type NamedSession } from '../projects/shared-titles'

export interface GoToTarget {
  readonly kind: 'session' | 'project'
  readonly id: string
  readonly label: string
}

export function goToTargets(
  projects: ReadonlyArray<{ readonly id: string; readonly name: string; readonly root: string }>,
  projectId: string | null,
  sessions: ReadonlyArray<NamedSession>,
  sessionId: string | null,
): GoToTarget[] {
  const out: GoToTarget[] = []
  const made = madeTimes(sessions)
  for (const s of sessions) if (s.id !== sessionId) out.push({ kind: 'session', id: s.id, label: `Session “${s.title}”${made.has(s.id) ? ` (made ${made.get(s.id)})` : ''}` })
  for (const p of projects) if (p.id !== projectId) out.push({ kind: 'project', id: p.id, label: `Project ${p.name} (${p.root})` })
  return out
}
