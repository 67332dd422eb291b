/**
 * The one door through which instruction, rule, memory, skill and imported files are read (docs/context-engine.md
 * "Project instructions", its Safety paragraph).
 *
 * A file is read only if its real path — every symlink resolved — stays inside one of the allowed roots (the
 * project root for project files, ~/.loupe for Loupe's global files, ~/.claude for `~/.claude/CLAUDE.md`). A link inside the root works; a link out of
 * it (`CLAUDE.md -> ~/.aws/credentials`) is refused before a byte is read. Files over 1 MB, binary files and
 * non-regular files are refused; invalid UTF-8 is replaced with U+FFFD and flagged. A UTF-8 byte-order mark is left
 * out of the text unless the reader asks to keep it (readLocated's `keepBom`). Nothing here throws.
 */
import { constants } from 'node:fs'
import { open, lstat, realpath, stat } from 'node:fs/promises'
import { sep } from 'node:path'
import type { FileRead } from '../../engine/prompt/gathered'
import { MAX_INSTRUCTION_FILE_BYTES } from '../../engine/prompt/gathered'

/** The file-system calls the door uses, so tests can record every path that was opened. */
export interface FileAccess {
  realpath(path: string): Promise<string>
  lstat(path: string): Promise<{ isSymbolicLink(): boolean }>
  /** `mtimeMs`: when the file last changed; a file that is not on disk (a draft) has none. */
  stat(path: string): Promise<{ isFile(): boolean; size: number; mtimeMs?: number }>
  /** Reads at most `maxBytes` bytes from the start of the file. */
  readHead(path: string, maxBytes: number): Promise<Uint8Array>
}

export const nodeFileAccess: FileAccess = {
  realpath: (path) => realpath(path),
  lstat: (path) => lstat(path),
  stat: (path) => stat(path),
  async readHead(path, maxBytes) {
    // `locate` checked this is a regular file; O_NONBLOCK and the check on the descriptor cover a FIFO swapped in
    // since, which a plain open would wait on forever.
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    try {
      // Sized from the open file, one byte over, so a 2 kB rule does not cost a 1 MB buffer; a file that grows
      // after this still reads as at most what it held plus that byte.
      const info = await handle.stat()
      if (!info.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREGULAR' })
      const { size } = info
      const buffer = new Uint8Array(Math.min(maxBytes, size + 1))
      let filled = 0
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled)
        if (bytesRead === 0) break
        filled += bytesRead
      }
      return buffer.subarray(0, filled)
    } finally {
      await handle.close()
    }
  },
}

/** A NUL byte in the first 8 KiB marks a binary file (the same test git uses). */
const BINARY_SNIFF_BYTES = 8192

export function isInside(realPath: string, realRoot: string): boolean {
  return realPath === realRoot || realPath.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)
}

export type Located =
  /** No file by that name (ENOENT): optional files are simply absent. */
  | { readonly kind: 'missing' }
  /** A directory, FIFO or other non-regular file. */
  | { readonly kind: 'not_a_file'; readonly realPath: string }
  | { readonly kind: 'outside'; readonly realPath: string }
  /** A dangling link or an I/O error while resolving. */
  | { readonly kind: 'unreadable'; readonly detail: string }
  | { readonly kind: 'file'; readonly realPath: string; readonly size: number; readonly modifiedMs: number | null }

function errorCode(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : 'EUNKNOWN'
}

/**
 * Why a dangling symbolic link is not read, in the words every reader of `locate` passes on (the prompt builder's
 * notes, the Files view, the memory tool): said as a broken link, not as a permissions problem.
 */
export const BROKEN_LINK = 'it is a symbolic link whose target does not exist (a broken link)'

/** Resolves `absPath` and checks it against the allowed roots without reading it. Never throws. */
export async function locate(absPath: string, allowedRoots: ReadonlyArray<string>, io: FileAccess = nodeFileAccess): Promise<Located> {
  let realPath: string
  try {
    realPath = await io.realpath(absPath)
  } catch (err) {
    const code = errorCode(err)
    if (code === 'ELOOP') return { kind: 'unreadable', detail: 'it is a symbolic link loop' }
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return { kind: 'unreadable', detail: code }
    try {
      const link = await io.lstat(absPath)
      return link.isSymbolicLink() ? { kind: 'unreadable', detail: BROKEN_LINK } : { kind: 'missing' }
    } catch {
      return { kind: 'missing' }
    }
  }
  if (!allowedRoots.some((root) => isInside(realPath, root))) return { kind: 'outside', realPath }
  try {
    const info = await io.stat(realPath)
    if (!info.isFile()) return { kind: 'not_a_file', realPath }
    return { kind: 'file', realPath, size: info.size, modifiedMs: info.mtimeMs ?? null }
  } catch (err) {
    return { kind: 'unreadable', detail: errorCode(err) }
  }
}

export interface ReadLocatedOptions {
  /**
   * Keep a UTF-8 byte-order mark as U+FEFF at the start of the text (as decodeUtf8Exact does). The Files view does:
   * it hashes what it read to notice a change on disk, and writes the text back, so a mark the user did not touch
   * must stay, and a change that only adds or removes one is a change. The prompt builder does not (the default): the
   * mark says how the file is encoded and is not part of its instructions, so the text sent to the model starts after
   * it, as it did before the Files view kept it, and as it does for the draft the Files view prices.
   */
  readonly keepBom?: boolean
}

/** Reads a located file as text, refusing what is too large or binary. Never throws. */
export async function readLocated(realPath: string, io: FileAccess = nodeFileAccess, options: ReadLocatedOptions = {}): Promise<FileRead> {
  try {
    // One byte more than the limit tells a file that grew after stat from one that is exactly at the limit.
    const bytes = await io.readHead(realPath, MAX_INSTRUCTION_FILE_BYTES + 1)
    if (bytes.length > MAX_INSTRUCTION_FILE_BYTES) {
      return { ok: false, reason: 'too_large', detail: `larger than ${MAX_INSTRUCTION_FILE_BYTES} bytes` }
    }
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { ok: false, reason: 'binary', detail: 'contains a NUL byte' }
    let text: string
    let replaced = false
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: options.keepBom ?? false }).decode(bytes)
    } catch {
      text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: options.keepBom ?? false }).decode(bytes)
      replaced = true
    }
    return { ok: true, text, bytes: bytes.length, replacedInvalidUtf8: replaced }
  } catch (err) {
    return { ok: false, reason: 'unreadable', detail: errorCode(err) }
  }
}
