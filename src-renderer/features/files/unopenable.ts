/**
 * Files the Files view cannot open in its editor, and why, in words: the prompt builder skipped them (larger than
 * 1 MB, binary, a real path outside the project and ~/.loupe, not a regular file, unreadable), or the main process
 * refused to open one (`unsupported`: not valid UTF-8, say). The view shows a note in the editor's place instead of
 * an error: nothing went wrong, the file is simply not one an instruction editor can take.
 */
import { create } from 'zustand'
import type { FileNodeView } from '../../../src-preload/contract'

export type UnopenableKind = 'too_large' | 'binary' | 'outside' | 'not_a_file' | 'unreadable' | 'refused'

export interface UnopenableFile {
  readonly path: string
  /** Where it is on disk, when the listing says. */
  readonly absPath: string | null
  readonly kind: UnopenableKind
  /** Why, as a sentence for the note. */
  readonly why: string
}

/**
 * An older host's listing gives a skipped file's reason only as the prompt builder's words ("not read: it is larger
 * than 1 MB", skipWords in src-main/engine/prompt/instructions.ts); these are the phrases that say which. The
 * listing's `skip` code says it directly.
 */
const SKIP_PHRASES: ReadonlyArray<readonly [string, Exclude<UnopenableKind, 'refused'>]> = [
  ['is larger than 1 MB', 'too_large'],
  ['is a binary file', 'binary'],
  ['is outside the project root', 'outside'],
  ['is not a regular file', 'not_a_file'],
  ['could not be read', 'unreadable'],
]

const WHY: Record<Exclude<UnopenableKind, 'refused'>, string> = {
  too_large:
    'It is larger than 1 MB, the most the prompt builder reads of an instruction or memory file: a pass sends only a line naming it, for the model to read with its tools, and there is no edit to price. Shorten it, or split it into smaller files it imports with @path, in another editor.',
  binary: 'It is a binary file (a NUL byte in its first 8 KB): the prompt builder skips it, and a text editor would damage it.',
  outside:
    'Its real path, once symbolic links are followed, is outside the project and Loupe\'s own folder: the prompt builder does not read it there, and this view opens only the files the prompt builder reads.',
  not_a_file: 'It is not a regular file (a folder, a device or a socket): the prompt builder skips it.',
  unreadable: 'It could not be read (check its permissions): the prompt builder skips it.',
}

const SKIP_KINDS: Readonly<Record<NonNullable<FileNodeView['skip']>, Exclude<UnopenableKind, 'refused'>>> = {
  too_large: 'too_large',
  binary: 'binary',
  outside_allowed_roots: 'outside',
  not_a_file: 'not_a_file',
  unreadable: 'unreadable',
}

/** Why a listed file cannot be opened here, or null when the view should try to open it. */
export function unopenable(node: Pick<FileNodeView, 'path' | 'absPath' | 'status' | 'reason' | 'skip' | 'skipDetail'>): UnopenableFile | null {
  if (node.status !== 'skipped') return null
  // The listing's code; from an older host, the phrase in its words.
  const kind = node.skip ? SKIP_KINDS[node.skip] : node.reason?.includes('not read') ? SKIP_PHRASES.find(([phrase]) => node.reason!.includes(phrase))?.[1] : undefined
  if (!kind) return null
  return { path: node.path, absPath: node.absPath, kind, why: kind === 'unreadable' && node.skipDetail ? unreadableWhy(node.skipDetail) : WHY[kind] }
}

/**
 * An unreadable file in the reader's own words (the main process's `skipDetail`, which the prompt builder's note and
 * the memory tool say too): a sentence ("it is a symbolic link whose target does not exist …") as it is, an error
 * code (EACCES) as the code.
 */
function unreadableWhy(detail: string): string {
  if (/^it /.test(detail)) return `${detail.charAt(0).toUpperCase()}${detail.slice(1)}: the prompt builder skips it.`
  return `It could not be read (${detail}; check its permissions): the prompt builder skips it.`
}

/** A file the main process refused to open for editing (`unsupported`), with its message. */
export function refusedFile(path: string, absPath: string | null, message: string): UnopenableFile {
  // The message repeats the path ("AGENTS.md cannot be edited here: it is …"): the note's heading says that already.
  const why = message.replace(/^.*?cannot be edited here: /, '')
  return { path, absPath, kind: 'refused', why: why.charAt(0).toUpperCase() + why.slice(1) + (/[.!]$/.test(why) ? '' : '.') }
}

/** The file picked last when it cannot be edited here (the tree, the inspector or the palette picked it), else null. */
export const useUnopenableStore = create<{ readonly file: UnopenableFile | null }>()(() => ({ file: null }))
