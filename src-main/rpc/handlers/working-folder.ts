import type { Project } from '../../../src-preload/contract'
import { folderGone } from '../../node/projects/folder-gone'
import { workingFolders as foldersOf } from '../../node/projects/working-folder'
import { RpcError } from '../errors'
import type { Services } from '../services'

/** What projects' folders hold when they are not working folders (node/projects/working-folder.ts), for this app. */
export function workingFolders(services: Services): (project: Pick<Project, 'id' | 'root'>) => string | null {
  return foldersOf(services.store, services.info.dataDir)
}

/** What one project's folder holds when it is not a working folder, or null: that project's imports only are read. */
export function notAWorkingFolder(services: Services, projectId: string, root: string): string | null {
  return foldersOf(services.store, services.info.dataDir, projectId)({ id: projectId, root })
}

/**
 * A project as the contract gives it: with what its folder holds when it is not a working folder, or whether its
 * working folder is gone from disk (read now: a folder renamed while the app runs shows at the next listing).
 */
export function projectView(services: Services, project: Project, holdsOf = foldersOf(services.store, services.info.dataDir, project.id)): Project {
  const holds = holdsOf(project)
  if (holds) return { ...project, notWorkingFolder: holds }
  return folderGone(project.root) ? { ...project, folderGone: true } : project
}

/** What a refusal to work in a project whose folder is gone says (decision 0022). */
export function folderGoneMessage(root: string): string {
  return `The folder ${root} is gone (deleted, renamed or moved): open it where it is now to work in it. This project's sessions stay here to read.`
}

/** Refuses to start work in a project whose folder is gone: the agent's tools would all fail there. */
export function requireFolderPresent(root: string): void {
  if (folderGone(root)) throw new RpcError('not_found', folderGoneMessage(root))
}
