/**
 * Every number that bounds what a tool reads, runs or returns. One file so the tool descriptions (which quote
 * them to the model), the executors and the tests agree.
 *
 * The output budget is about tokens in the next pass: at roughly 4 characters per token (English and code), 30,000
 * characters is ~7,500 tokens — large enough for a whole test run's failures, small enough that a runaway command
 * cannot take a noticeable share of a 200k window in one call.
 */

/** Largest text any tool returns to the model, in characters (UTF-16 code units). */
export const TOOL_OUTPUT_MAX_CHARS = 30_000

/** read_file: lines returned when the model gives no `limit`. */
export const READ_DEFAULT_LINE_LIMIT = 2_000
/** read_file: longest line shown; minified bundles would otherwise fill the budget with one line. */
export const READ_MAX_LINE_CHARS = 2_000
/**
 * read_file: files larger than this are not read whole (the whole file is hashed for the read memory). 20 MiB. A
 * larger one is read only by a range (offset/limit), streamed from its start (node/fs/line-range.ts).
 */
export const READ_MAX_FILE_BYTES = 20 * 1024 * 1024
/**
 * read_file, a range of a file over READ_MAX_FILE_BYTES: the lines after the range are counted, for the total the
 * answer names, until this many bytes of the file have been read; past that the answer says how far it counted.
 * 256 MiB. Reaching the lines asked for is not bounded.
 */
export const READ_RANGE_COUNT_MAX_BYTES = 256 * 1024 * 1024
/** Bytes inspected for a NUL to decide a file is binary (the heuristic git and ripgrep use). */
export const BINARY_SNIFF_BYTES = 8_000

/** list_dir: entries shown before the listing is cut. */
export const LIST_DIR_MAX_ENTRIES = 1_000
/** glob: paths returned before the list is cut. */
export const GLOB_MAX_RESULTS = 500
/** grep: matching lines returned before the search stops. */
export const GREP_MAX_MATCHES = 300
/** grep: longest matching line shown, in characters. */
export const GREP_MAX_LINE_CHARS = 300
/**
 * grep: files larger than this are not read by the built-in searcher, which names them in its result as not searched
 * (ripgrep streams files of any size and has no such limit). 5 MiB.
 */
export const GREP_MAX_FILE_BYTES = 5 * 1024 * 1024

/** bash: timeout when the model gives none, and the largest it may ask for (2 and 10 minutes). */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000
export const BASH_MAX_TIMEOUT_MS = 600_000
/** bash: after SIGTERM to the process group, how long before SIGKILL. */
export const KILL_GRACE_MS = 1_000

/** remember: longest fact accepted, in characters. A fact is one line of a memory file. */
export const REMEMBER_MAX_FACT_CHARS = 1_000
/** todo_write: most items in one plan. */
export const TODO_MAX_ITEMS = 100
