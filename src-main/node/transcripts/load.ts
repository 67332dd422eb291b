/**
 * Loading one session from disk with its subagents, and the per-session facts a listing shows.
 */
import { constants } from 'node:fs'
import { open, readdir, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { collectRequests } from '../../engine/transcripts/requests'
import { skippedReasons } from '../../engine/transcripts/file-stats'
import { importSession, type ImportedSession, type SubagentFile } from '../../engine/transcripts/session'
import { readTranscriptFile, type ReadErrorKind, type ReadOptions } from './read'
import type { SessionFileInfo } from './locate'
import { typedPrompt } from '../../engine/transcripts/typed-prompt'

export type LoadResult =
  | {
      readonly ok: true
      readonly session: ImportedSession
      readonly bytes: number
      /** Subagent files that could not be read (the session imports without them). */
      readonly unreadableSubagents: ReadonlyArray<{ readonly path: string; readonly kind: ReadErrorKind }>
    }
  | { readonly ok: false; readonly error: { readonly kind: ReadErrorKind; readonly message: string } }

export interface LoadOptions extends ReadOptions {
  /** Default true: read `<session-id>/subagents/agent-*.jsonl` (2.x) and matching sibling `agent-*.jsonl` (1.x). */
  readonly subagents?: boolean
}

const SNIFF_BYTES = 64 * 1024

/**
 * The sessionId on the first line of a 1.x sibling agent file, from its first 64 KiB only. Null for anything but a
 * regular file: a FIFO named `agent-*.jsonl` is not opened (that would wait for a writer forever), and the open uses
 * O_NONBLOCK with the type checked again on the descriptor.
 */
async function sniffSessionId(path: string): Promise<string | null> {
  let handle
  try {
    if (!(await stat(path)).isFile()) return null
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    if (!(await handle.stat()).isFile()) return null
    const buffer = Buffer.alloc(SNIFF_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0)
    const match = /"sessionId":"([^"]+)"/.exec(buffer.subarray(0, bytesRead).toString('utf8'))
    return match?.[1] ?? null
  } catch {
    return null
  } finally {
    await handle?.close()
  }
}

async function subagentCandidates(path: string): Promise<string[]> {
  const dir = dirname(path)
  const sessionId = basename(path, '.jsonl')
  const out: string[] = []
  const nested = join(dir, sessionId, 'subagents')
  try {
    for (const name of (await readdir(nested)).sort()) if (/^agent-.+\.jsonl$/.test(name)) out.push(join(nested, name))
  } catch {
    // No subagents folder: a 1.x session or one without subagents.
  }
  try {
    for (const name of (await readdir(dir)).sort()) {
      if (!/^agent-.+\.jsonl$/.test(name)) continue
      const candidate = join(dir, name)
      if ((await sniffSessionId(candidate)) === sessionId) out.push(candidate)
    }
  } catch {
    // The session's own folder vanished between reads; the main file read reports it.
  }
  return out
}

export async function loadSession(path: string, options: LoadOptions = {}): Promise<LoadResult> {
  const main = await readTranscriptFile(path, options)
  if (!main.ok) return main
  const files: SubagentFile[] = []
  const unreadable: Array<{ path: string; kind: ReadErrorKind }> = []
  let bytes = main.bytes
  if (options.subagents ?? true) {
    for (const candidate of await subagentCandidates(path)) {
      // Subagent files must stay next to the session they belong to.
      const read = await readTranscriptFile(candidate, { ...options, root: options.root ?? dirname(main.realPath) })
      if (read.ok) {
        files.push({ name: basename(candidate), parsed: read.parsed })
        bytes += read.bytes
      } else unreadable.push({ path: candidate, kind: read.error.kind })
    }
  }
  return { ok: true, session: importSession(main.parsed, files), bytes, unreadableSubagents: unreadable }
}

export interface SessionDescription extends SessionFileInfo {
  /** Distinct API requests in the session file (subagent files not included). */
  readonly requests: number
  readonly models: ReadonlyArray<string>
  readonly firstAtMs: number | null
  readonly lastAtMs: number | null
  readonly title: string | null
  /** The working folder Claude Code ran in (the first line that names one). */
  readonly cwd: string | null
  /** The first prompt the user typed (not a command wrapper, caveat or reminder), up to 200 characters. */
  readonly firstPrompt: string | null
  readonly skippedLines: number
  /** Those lines by why they were skipped (the parser's SkipReason codes). */
  readonly skipped: Readonly<Record<string, number>>
  /** Lines in the session file (`noConversation` tells from it, `skippedLines` and `requests` whether it can be imported). */
  readonly lineCount: number
}

/**
 * Whether a session file holds no conversation to import: `empty` (no line at all), `no_records` (not one line read
 * as a transcript record: random bytes, another format) or `no_requests` (records, but not one API request: a 1.x
 * file of titles only, history snapshots, a prompt whose request never went out, so an import would show a session
 * with nothing in it; decision 0050); null when it holds one. The import and --summary refuse such a file and the
 * listing marks it, by this one rule.
 */
export function noConversation(file: { readonly lineCount: number; readonly skippedLines: number; readonly requests: number }): 'empty' | 'no_records' | 'no_requests' | null {
  if (file.lineCount === 0) return 'empty'
  if (file.skippedLines === file.lineCount) return 'no_records'
  return file.requests === 0 ? 'no_requests' : null
}

/**
 * Why the session file at `path` cannot be imported or summed up, in a sentence naming it, by `noConversation`'s rule;
 * null when it holds a conversation. With the reasons its lines were skipped, so a damaged file says how.
 */
export function noConversationMessage(
  path: string,
  file: { readonly lineCount: number; readonly skippedLines: number; readonly requests: number; readonly skipped?: Readonly<Record<string, number>> },
): string | null {
  const none = noConversation(file)
  if (none === null) return null
  if (none === 'empty') return `${path} is empty: there is no conversation to import`
  const lines = `${file.lineCount.toLocaleString('en-US')} line${file.lineCount === 1 ? '' : 's'}`
  const reasons = skippedReasons(file.skipped ?? {})
  // The answers may be there but damaged: then the skipped lines are why there is none.
  if (none === 'no_requests') return `${path} records no API request: none of its ${lines} is an answer from the model${reasons ? ` (${file.skippedLines.toLocaleString('en-US')} skipped: ${reasons})` : ''}, so there is no conversation to import`
  return `${path} is not a Claude Code session: none of its ${lines} is a transcript record${reasons ? ` (${reasons})` : ''}`
}

/** Reads one listed session file for the facts a listing shows. Null when it cannot be read. */
export async function describeSession(info: SessionFileInfo, options: ReadOptions = {}): Promise<SessionDescription | null> {
  const read = await readTranscriptFile(info.path, options)
  if (!read.ok) return null
  const requests = collectRequests(read.parsed.records)
  let first: number | null = null
  let last: number | null = null
  let title: string | null = null
  let cwd: string | null = null
  let firstPrompt: string | null = null
  for (const r of read.parsed.records) {
    if (r.type === 'summary') title ??= r.summary
    if ('cwd' in r) cwd ??= r.cwd
    if (firstPrompt === null && r.type === 'user' && !r.isMeta && !r.isSidechain && !r.isCompactSummary) {
      for (const b of r.content) {
        const typed = b.type === 'text' ? typedPrompt(b.text) : null
        if (typed === null) continue
        firstPrompt = typed.replace(/\s+/g, ' ').slice(0, 200)
        break
      }
    }
    if (!('timestampMs' in r) || r.timestampMs === null) continue
    first = first === null ? r.timestampMs : Math.min(first, r.timestampMs)
    last = last === null ? r.timestampMs : Math.max(last, r.timestampMs)
  }
  const models: string[] = []
  for (const r of requests) if (!r.isSidechain && !models.includes(r.model)) models.push(r.model)
  return {
    ...info,
    requests: requests.length,
    models,
    firstAtMs: first,
    lastAtMs: last,
    title,
    cwd,
    firstPrompt,
    skippedLines: read.parsed.skippedTotal,
    skipped: read.parsed.skipped,
    lineCount: read.parsed.lineCount,
  }
}
