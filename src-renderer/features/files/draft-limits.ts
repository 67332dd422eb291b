/**
 * What makes a draft one the main process will never save (src-main/node/files/edit.ts saveFile): more UTF-8 bytes
 * than the prompt builder reads of a file, or a NUL character. Checked in the view before the draft is priced or
 * saved, so the user is told while typing, not by a refused save that trying again cannot fix.
 */
import { MAX_INSTRUCTION_FILE_BYTES, type ErrorCode } from '../../../src-preload/contract'

export interface UnsavableDraft {
  readonly kind: 'too_large' | 'nul'
  /** What the view says under the editor while the draft is so: why, and what to do. */
  readonly message: string
  /** The reason in a few words, for a refused save's line, which the message above already explains. */
  readonly short: string
}

const encoder = new TextEncoder()
const grouped = (n: number) => n.toLocaleString('en-US')

/** The draft's size as the file on disk would have it: UTF-8, not string length (an é is 2 bytes, an emoji 4). */
export const utf8Bytes = (text: string): number => encoder.encode(text).length

/** Why this text cannot be saved as an instruction or memory file, or null when it can. */
export function unsavableDraft(text: string): UnsavableDraft | null {
  // At most 3 bytes a UTF-16 unit: a text this short is under the limit without encoding it.
  if (text.length * 3 > MAX_INSTRUCTION_FILE_BYTES) {
    const bytes = utf8Bytes(text)
    if (bytes > MAX_INSTRUCTION_FILE_BYTES) {
      return {
        kind: 'too_large',
        message: `The text is ${grouped(bytes)} bytes: over the 1 MB (${grouped(MAX_INSTRUCTION_FILE_BYTES)} bytes) the prompt builder reads of a file, so every pass would skip it. Shorten it by ${grouped(bytes - MAX_INSTRUCTION_FILE_BYTES)} bytes to save it, or move part of it into a file it imports with @path.`,
        short: 'it is over the 1 MB the prompt builder reads of a file',
      }
    }
  }
  if (text.includes('\0')) return { kind: 'nul', message: 'The text contains a NUL character, which an instruction file cannot hold (it is text, and a NUL near its start makes the prompt builder skip it as binary). Remove it to save.', short: 'it holds a NUL character' }
  return null
}

/**
 * Whether saving the same text again can succeed after a refusal with this code: a write that failed, a session or
 * connection busy, can; a text refused for what it is (too large, a NUL), a file this view may not write, or one
 * that changed into something it cannot edit, cannot.
 */
export function retryMayHelp(code: ErrorCode | string): boolean {
  return !['invalid_input', 'permission_denied', 'conflict', 'unsupported', 'not_found', 'not_a_directory', 'unknown_request'].includes(code)
}
