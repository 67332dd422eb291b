/**
 * The one function that writes files for the tools. A write is atomic: the content goes to a temporary file in
 * the same folder, is flushed, and is renamed over the target, so a reader (or a crash) sees the old file or the new
 * one, never half of each. rename() replaces a symbolic link at the target rather than writing through it.
 *
 * Callers decide *where* (the project door confines paths to the root; user memory has one fixed path).
 */
import { randomBytes } from 'node:crypto'
import { chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

export async function writeFileAtomic(absPath: string, content: string): Promise<void> {
  const folder = dirname(absPath)
  await mkdir(folder, { recursive: true })
  // Keep the permissions of the file being replaced (an executable script stays executable).
  const mode = await stat(absPath).then((s) => (s.isFile() ? s.mode & 0o7777 : undefined), () => undefined)
  const temp = join(folder, `.${basename(absPath)}.${process.pid}.${randomBytes(6).toString('hex')}.loupe-tmp`)
  // 'wx' fails if the name exists, symbolic links included, so the temporary file is always new.
  const handle = await open(temp, 'wx', mode ?? 0o666)
  try {
    await handle.writeFile(content, 'utf8')
    await handle.sync()
  } catch (error) {
    await handle.close().catch(() => undefined)
    await unlink(temp).catch(() => undefined)
    throw error
  }
  await handle.close()
  // open()'s mode is filtered by the umask; the replaced file's mode is restored exactly.
  if (mode !== undefined) await chmod(temp, mode).catch(() => undefined)
  try {
    await rename(temp, absPath)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
}
