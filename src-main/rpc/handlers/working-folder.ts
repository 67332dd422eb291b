import { dirname } from 'node:path'
import type { Project } from '../../../src-preload/contract'
import { capturedRoot } from '../../node/proxy/recorder'
import { importedSessions } from '../../node/transcripts/origins'
import type { Services } from '../services'

/**
 * What projects' folders hold when they are not working folders, in words ("Claude Code's transcripts …"), or null:
 * a project made on import for transcripts whose working folder is not on this machine is the folder of Claude
 * Code's logs; the captured project is the proxy's recordings. No session works there, and the Files view writes
 * nothing there. The imported sessions are read once for all the projects asked about.
 */
export function workingFolders(services: Services): (project: Pick<Project, 'id' | 'root'>) => string | null {
  const logFolders = new Set<string>()
  for (const s of importedSessions(services.store)) if (s.ref?.kind === 'claude-code') logFolders.add(`${s.projectId}\u0000${dirname(s.ref.path)}`)
  const captured = capturedRoot(services.info.dataDir)
  return (project) => {
    if (logFolders.has(`${project.id}\u0000${project.root}`)) return "Claude Code's transcripts (imported sessions whose working folder is not on this machine)"
    if (project.root === captured) return 'the requests the capture proxy recorded'
    return null
  }
}

/** What one project's folder holds when it is not a working folder, or null. */
export function notAWorkingFolder(services: Services, projectId: string, root: string): string | null {
  return workingFolders(services)({ id: projectId, root })
}

/** A project as the contract gives it: with what its folder holds when it is not a working folder. */
export function projectView(services: Services, project: Project, holdsOf = workingFolders(services)): Project {
  const holds = holdsOf(project)
  return holds ? { ...project, notWorkingFolder: holds } : project
}
