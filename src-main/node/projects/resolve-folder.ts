import { constants } from 'node:fs'
import { access, realpath, stat } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { capturedRoot } from '../proxy/recorder'
import { isInside } from '../instructions/safe-read'
import { RpcError } from '../../rpc/errors'

/**
 * Turns a user-typed folder path into the project's root: absolute, symlinks resolved, an existing directory that
 * can be listed. Each failure is a distinct, plainly worded error the UI shows as is.
 */
export async function resolveProjectFolder(input: string, homeDir: string): Promise<string> {
  const trimmed = input.trim()
  if (trimmed.includes('\0')) throw new RpcError('invalid_input', 'The path contains a NUL character')
  const expanded = trimmed === '~' ? homeDir : trimmed.startsWith('~/') ? resolve(homeDir, trimmed.slice(2)) : trimmed
  if (!isAbsolute(expanded)) throw new RpcError('invalid_input', `Give an absolute path (got "${trimmed}")`)
  let real: string
  try {
    real = await realpath(expanded)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new RpcError('not_found', `No folder at ${expanded}`)
    if (code === 'EACCES') throw new RpcError('permission_denied', `Cannot read ${expanded}: permission denied`)
    if (code === 'ELOOP') throw new RpcError('io_error', `Cannot open ${expanded}: it is a symbolic link loop (or passes through one)`)
    throw new RpcError('io_error', `Cannot open ${expanded}: ${(err as Error).message}`)
  }
  const info = await stat(real)
  if (!info.isDirectory()) throw new RpcError('not_a_directory', `${expanded} is a file, not a folder`)
  try {
    await access(real, constants.R_OK | constants.X_OK)
  } catch {
    throw new RpcError('permission_denied', `Cannot read ${expanded}: permission denied`)
  }
  return real
}

/**
 * The data folder, resolved, when `root` (a resolved project folder) is it or lies inside it; else null. The proxy's
 * recordings folder is the exception: it opens as the read-only project the proxy made for them.
 */
export async function dataFolderHolding(root: string, dataDir: string): Promise<string | null> {
  const data = await realpath(dataDir).catch(() => resolve(dataDir))
  if (root === capturedRoot(data)) return null
  return isInside(root, data) ? data : null
}
