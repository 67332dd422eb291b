/**
 * A file-system failure in words a user can act on ("a file is in the way: /home/me/proj/.loupe"), instead of
 * Node's "EEXIST: file already exists, mkdir '…'". An error without a known code keeps its own message.
 */
const ERRNO_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file is in the way',
  EISDIR: 'it is a folder',
  ENAMETOOLONG: 'a name in the path is too long',
}

export function ioCause(err: unknown): string {
  const e = err as NodeJS.ErrnoException | null
  const words = e?.code ? ERRNO_WORDS[e.code] : undefined
  if (!words) return err instanceof Error ? err.message : String(err)
  return typeof e?.path === 'string' ? `${words}: ${e.path}` : words
}
