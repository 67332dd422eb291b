import type { Project } from '../../../src-preload/contract'
import { workingFolders as foldersOf } from '../../node/projects/working-folder'
import type { Services } from '../services'

/** What projects' folders hold when they are not working folders (node/projects/working-folder.ts), for this app. */
export function workingFolders(services: Services): (project: Pick<Project, 'id' | 'root'>) => string | null {
  return foldersOf(services.store, services.info.dataDir)
}

/** What one project's folder holds when it is not a working folder, or null: that project's imports only are read. */
export function notAWorkingFolder(services: Services, projectId: string, root: string): string | null {
  return foldersOf(services.store, services.info.dataDir, projectId)({ id: projectId, root })
}

/** A project as the contract gives it: with what its folder holds when it is not a working folder. */
export function projectView(services: Services, project: Project, holdsOf = foldersOf(services.store, services.info.dataDir, project.id)): Project {
  const holds = holdsOf(project)
  return holds ? { ...project, notWorkingFolder: holds } : project
}
