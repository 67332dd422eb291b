/**
 * Limits both sides must agree on, in a module that imports nothing, so the engine may import it too (like money.ts):
 * the prompt builder enforces them, and the renderer says so before the user meets the refusal.
 */

/**
 * Instruction, rule, memory, skill and imported files larger than this (in UTF-8 bytes) are never read: the prompt
 * builder skips them, and the Files view will not save a text that large.
 */
export const MAX_INSTRUCTION_FILE_BYTES = 1024 * 1024

/** Entries `session.get` sends a window: the newest (decision 0039). Earlier ones come from `session.entries`. */
export const SESSION_WINDOW_ENTRIES = 1_000
/** Entries one `session.entries` answer holds at most. */
export const MAX_ENTRIES_PAGE = 20_000

/** Entries shown above a pass's answer when it is brought into view (its question, what led to it); read with it. */
export const ENTRIES_BEFORE_ANSWER = 10
