/**
 * The one function that writes files for the tools. A write is atomic: the content goes to a temporary file in
 * the same folder, is flushed, and is renamed over the target, so a reader (or a crash) sees the old file or the new
 * one, never half of each. rename() replaces a symbolic link at the target rather than writing through it.
 *
 * Callers decide *where* (the project door confines paths to the root; user memory has one fixed path).
 */
import { randomBytes } from 'node:crypto'
import { chmod, link, open, realpath, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { makeFolders } from './make-folders'

/** Text written at a time when the content comes in pieces: each write lets the event loop run. */
const PIECE_BATCH_CHARS = 1 << 20

/**
 * `content` may be one string, or pieces written one batch after another (a large export: joining them first
 * would hold the event loop for the whole join).
 */
/** A name for a temporary file beside `absPath`, unique to this write. */
export function temporaryNameFor(absPath: string): string {
  return join(dirname(absPath), `.${basename(absPath)}.${process.pid}.${randomBytes(6).toString('hex')}.loupe-tmp`)
}

export interface AtomicWriteOptions {
  /**
   * Called once the content is on disk, just before it takes the target's name; what it throws stops the write (the
   * temporary file is removed). A caller that judged the folder before a long write judges it again here.
   */
  readonly beforeRename?: (folderReal: string) => Promise<void>
  /** Never replace a file at the target: the name is taken with link(), which fails if anything holds it. */
  readonly noReplace?: boolean
}

export async function writeFileAtomic(absPath: string, content: string | ReadonlyArray<string>, options: AtomicWriteOptions = {}): Promise<void> {
  const folder = dirname(absPath)
  await makeFolders(folder)
  // Keep the permissions of the file being replaced (an executable script stays executable).
  const mode = await stat(absPath).then((s) => (s.isFile() ? s.mode & 0o7777 : undefined), () => undefined)
  const temp = temporaryNameFor(absPath)
  // 'wx' fails if the name exists, symbolic links included, so the temporary file is always new.
  const handle = await open(temp, 'wx', mode ?? 0o666)
  try {
    if (typeof content === 'string') await handle.writeFile(content, 'utf8')
    else {
      let batch: string[] = []
      let size = 0
      for (const piece of content) {
        batch.push(piece)
        size += piece.length
        if (size < PIECE_BATCH_CHARS) continue
        await handle.write(batch.join(''), null, 'utf8')
        batch = []
        size = 0
      }
      if (batch.length > 0) await handle.write(batch.join(''), null, 'utf8')
    }
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
    if (options.beforeRename) await options.beforeRename(await realpath(folder))
    if (options.noReplace) {
      // link() names the file only if the name is free; the temporary name then goes.
      await link(temp, absPath)
      await unlink(temp).catch(() => undefined)
    } else await rename(temp, absPath)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
}
