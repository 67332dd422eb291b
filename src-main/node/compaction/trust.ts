/**
 * Which local extension modules the user opted into, per project (docs/compaction.md
 * "Context edits and extension points"). A project's config may name a module, but a repository is untrusted input: a
 * module runs only if the user trusted that file, for that project, with those exact bytes. The list lives in Loupe's
 * own folder, never in the project:
 * `<loupeHome>/trusted-extensions.json` = `{ "version": 1, "projects": { "<real root>": { "<path>": "<sha256>" } } }`.
 */
import { createHash } from 'node:crypto'
import { readRegularFile } from '../fs/regular-file'
import { dirname, join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic-write'
import { makeFolders } from '../fs/make-folders'

export const TRUST_FILE = 'trusted-extensions.json'

interface TrustFile {
  readonly version: 1
  readonly projects: Record<string, Record<string, string>>
}

export function sha256OfBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

async function readTrust(loupeHome: string): Promise<TrustFile> {
  try {
    const parsed = JSON.parse((await readRegularFile(join(loupeHome, TRUST_FILE), { maxBytes: 4 * 1024 * 1024 })).toString('utf8')) as Partial<TrustFile>
    if (parsed.version === 1 && typeof parsed.projects === 'object' && parsed.projects !== null) return { version: 1, projects: parsed.projects }
  } catch {
    // Missing or unreadable: nothing is trusted.
  }
  return { version: 1, projects: {} }
}

/** Whether `modulePath` (relative to the root) is trusted for `realRoot` with these bytes. */
export async function isTrusted(loupeHome: string, realRoot: string, modulePath: string, sha256: string): Promise<boolean> {
  const trust = await readTrust(loupeHome)
  return trust.projects[realRoot]?.[modulePath] === sha256
}

/** Records the user's opt-in for one module of one project (the UI calls this after asking). */
export async function trustExtension(loupeHome: string, realRoot: string, modulePath: string, sha256: string): Promise<void> {
  const trust = await readTrust(loupeHome)
  const projects = { ...trust.projects, [realRoot]: { ...(trust.projects[realRoot] ?? {}), [modulePath]: sha256 } }
  const file = join(loupeHome, TRUST_FILE)
  await makeFolders(dirname(file))
  await writeFileAtomic(file, `${JSON.stringify({ version: 1, projects }, null, 2)}\n`)
}
