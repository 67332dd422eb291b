/**
 * Copies of instruction and memory files kept in the data folder: the version a save replaced (`backup`) and the
 * user's own text when a save was refused because the file had changed on disk (`mine`). Neither is ever lost to a
 * save: a refused save keeps the user's text here, and the save that resolves the merge keeps the disk's.
 *
 *   <dataDir>/file-backups/<sha256(absPath)[0..16]>/path.txt           the file's absolute path
 *   <dataDir>/file-backups/<key>/<ISO time>.<backup|mine>.<name>       one version each
 *
 * At most MAX_VERSIONS_PER_FILE versions are kept per file; the oldest go first.
 */
import { createHash } from 'node:crypto'
import { readdir, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic-write'

export const BACKUP_FOLDER = 'file-backups'
/** Twenty versions of a file of at most 1 MB is at most 20 MB per file: enough to undo a day of edits. */
export const MAX_VERSIONS_PER_FILE = 20

export type BackupKind = 'backup' | 'mine'

export function backupFolder(dataDir: string, absPath: string): string {
  return join(dataDir, BACKUP_FOLDER, createHash('sha256').update(absPath).digest('hex').slice(0, 16))
}

function stamp(at: number): string {
  return new Date(at).toISOString().replace(/[:.]/g, '-')
}

/** Writes one version and returns its path; prunes the oldest beyond the limit. */
export async function keepVersion(dataDir: string, absPath: string, kind: BackupKind, text: string, at: number): Promise<string> {
  const folder = backupFolder(dataDir, absPath)
  await writeFileAtomic(join(folder, 'path.txt'), `${absPath}\n`)
  let name = `${stamp(at)}.${kind}.${basename(absPath)}`
  const existing = new Set(await readdir(folder))
  for (let n = 2; existing.has(name); n++) name = `${stamp(at)}-${n}.${kind}.${basename(absPath)}`
  const path = join(folder, name)
  await writeFile(path, text, { encoding: 'utf8', flag: 'wx', mode: 0o600 })
  await prune(folder)
  return path
}

/** The versions kept for a file, newest first. */
export async function listVersions(dataDir: string, absPath: string): Promise<Array<{ path: string; kind: BackupKind }>> {
  const folder = backupFolder(dataDir, absPath)
  let names: string[]
  try {
    names = await readdir(folder)
  } catch {
    return []
  }
  return names
    .filter((n) => n !== 'path.txt')
    .sort()
    .reverse()
    .map((n) => ({ path: join(folder, n), kind: n.includes('.mine.') ? 'mine' : 'backup' }))
}

async function prune(folder: string): Promise<void> {
  const names = (await readdir(folder)).filter((n) => n !== 'path.txt').sort()
  for (const name of names.slice(0, Math.max(0, names.length - MAX_VERSIONS_PER_FILE))) await rm(join(folder, name), { force: true })
}
