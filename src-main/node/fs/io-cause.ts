/**
 * A file-system failure in words a user (or the model) can act on ("a file is in the way: /home/me/proj/.loupe"),
 * instead of Node's "EEXIST: file already exists, mkdir '…'". An error without a known code keeps its own message.
 */
const ERRNO_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied (not readable or writable by this user)',
  EPERM: 'permission denied (not readable or writable by this user)',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file is in the way',
  EISDIR: 'it is a folder',
  ENAMETOOLONG: 'the path, or a name in it, is too long for the file system',
  EMFILE: 'too many files are open; try again',
  ENFILE: 'too many files are open; try again',
  EIO: 'an input/output error (the disk or network drive failed)',
}

/** Codes whose path is not worth repeating: it is the problem, or says nothing of it. */
const WITHOUT_PATH = new Set(['ENAMETOOLONG', 'EMFILE', 'ENFILE'])

export function ioCause(err: unknown): string {
  const e = err as NodeJS.ErrnoException | null
  const code = typeof e?.code === 'string' ? e.code : undefined
  const words = code ? ERRNO_WORDS[code] : undefined
  if (!words) return err instanceof Error ? err.message : String(err)
  return typeof e?.path === 'string' && e.path.length <= 300 && !WITHOUT_PATH.has(code!) ? `${words}: ${e.path}` : words
}
