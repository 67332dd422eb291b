import { basename } from 'node:path'
import type { Project } from '../../../src-preload/contract'
import { cleanName } from '../../../src-preload/names'
import type { Db } from './database'
import { newId } from './ids'

interface ProjectRow {
  id: string
  name: string
  root: string
  created_at: number
  last_opened_at: number
}

/**
 * The name a project shows (decision 0051): its name kept as every name is, else its folder's name, else its whole
 * path. Applied on the way in and the way out, so a row written before the rule shows the same as one written since.
 */
export function projectName(name: string, root: string): string {
  return cleanName(name) || cleanName(basename(root)) || cleanName(root) || 'Untitled project'
}

function toProject(row: ProjectRow): Project {
  return { id: row.id, name: projectName(row.name, row.root), root: row.root, createdAt: row.created_at, lastOpenedAt: row.last_opened_at }
}

export class ProjectRepo {
  constructor(private readonly db: Db) {}

  /**
   * Adds the project at `root` (an already-resolved real path), or touches it if it is known. A project taken out of
   * the list is listed again, with its sessions.
   */
  open(root: string, now: number): Project {
    const existing = this.db.prepare('SELECT * FROM projects WHERE root = ?').get(root) as ProjectRow | undefined
    if (existing) {
      this.db.prepare('UPDATE projects SET last_opened_at = ?, hidden_at = NULL WHERE id = ?').run(now, existing.id)
      return toProject({ ...existing, last_opened_at: now })
    }
    const row: ProjectRow = { id: newId('prj', now), name: projectName(basename(root), root), root, created_at: now, last_opened_at: now }
    this.db
      .prepare('INSERT INTO projects (id, name, root, created_at, last_opened_at) VALUES (@id, @name, @root, @created_at, @last_opened_at)')
      .run(row)
    return toProject(row)
  }

  /** Gives the project another name (a project made for a transcript folder is named after the session's cwd). */
  rename(id: string, name: string): void {
    const project = this.get(id)
    if (project) this.db.prepare('UPDATE projects SET name = ? WHERE id = ?').run(projectName(name, project.root), id)
  }

  get(id: string): Project | null {
    const row = this.db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow | undefined
    return row ? toProject(row) : null
  }

  /** The projects in the sidebar: every one but those taken out of the list. */
  list(): Project[] {
    const rows = this.db.prepare('SELECT * FROM projects WHERE hidden_at IS NULL ORDER BY last_opened_at DESC, id DESC').all() as ProjectRow[]
    return rows.map(toProject)
  }

  /**
   * Takes a project out of the list. Nothing is deleted: its sessions, passes and files stay, and `open` of its folder
   * lists it again. False when there is no such project, or it is out of the list already.
   */
  hide(id: string, now: number): boolean {
    return this.db.prepare('UPDATE projects SET hidden_at = ? WHERE id = ? AND hidden_at IS NULL').run(now, id).changes > 0
  }
}
