import { dirname } from 'node:path'
import type { Project } from '../../../src-preload/contract'
import { capturedRoot } from '../proxy/recorder'
import type { Store } from '../store'
import { importedSessions } from '../transcripts/origins'

/**
 * What projects' folders hold when they are not working folders, in words ("Claude Code's transcripts …"), or null:
 * a project made on import for transcripts whose working folder is not on this machine is the folder of Claude
 * Code's logs; the captured project is the proxy's recordings. No session works there, and the Files view writes
 * nothing there. The imported sessions are read once for all the projects asked about (only `onlyProjectId`'s, when
 * one project is asked about).
 */
export function workingFolders(store: Store, dataDir: string, onlyProjectId?: string): (project: Pick<Project, 'id' | 'root'>) => string | null {
  const logFolders = new Set<string>()
  for (const s of importedSessions(store, onlyProjectId)) if (s.ref?.kind === 'claude-code') logFolders.add(`${s.projectId}\u0000${dirname(s.ref.path)}`)
  const captured = capturedRoot(dataDir)
  return (project) => {
    if (logFolders.has(`${project.id}\u0000${project.root}`)) return "Claude Code's transcripts (imported sessions whose working folder is not on this machine)"
    if (project.root === captured) return 'the requests the capture proxy recorded'
    return null
  }
}
