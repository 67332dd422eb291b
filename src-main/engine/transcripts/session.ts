/**
 * A Claude Code session file (plus its subagent files) → an imported session: its API requests, its compactions as
 * checkpoints, and its subagents as linked child sessions. Pure; the files are read by src-main/node/transcripts/.
 */
import { findCheckpoints, type TranscriptCheckpoint } from './checkpoints'
import { fileStats, type FileStats } from './file-stats'
import { parseTranscript, type ParsedTranscript, type ParserOptions } from './parser'
import { collectRequests, type TranscriptRequest } from './requests'
import { fileSubagent, inlineSidechains } from './subagents'
import { indexThread, type ThreadIndex } from './thread'

export type ThreadKind = 'main' | 'task' | 'compaction' | 'sidechain'

/** One line of requests sharing a conversation: the main session, or one subagent. */
export interface TranscriptThread {
  readonly kind: ThreadKind
  /** The session id for the main thread; the agent id (or the sidechain's root uuid) for a child. */
  readonly id: string
  /** Deduplicated API requests, in the order they were first written. */
  readonly requests: ReadonlyArray<TranscriptRequest>
  readonly checkpoints: ReadonlyArray<TranscriptCheckpoint>
  /** uuid → line, used to reconstruct what each request carried (thread.ts). */
  readonly index: ThreadIndex
  /**
   * The thread's last conversation line in file order (a user or assistant line): where the session ended, which
   * may be after its last request (the results of its last calls, an interruption). Absent: not known.
   */
  readonly tipUuid?: string | null
}

export interface SubagentSession extends TranscriptThread {
  readonly kind: 'task' | 'compaction' | 'sidechain'
  /** 2.x: its own file `<session>/subagents/agent-<id>.jsonl`; 1.x: `isSidechain` lines inside the session file. */
  readonly source: 'file' | 'inline'
  readonly fileName: string | null
  /** The Task/Agent tool_use in the parent that started it, when the link could be found. */
  readonly parentToolUseId: string | null
  /** For a compaction request file (`agent-acompact-*`): the parent checkpoint it produced. */
  readonly checkpointIndex: number | null
  /** Only for `source: 'file'`. */
  readonly file: FileStats | null
}

export interface ImportedSession extends TranscriptThread {
  readonly kind: 'main'
  readonly sessionId: string | null
  /** Claude Code versions that wrote the file, in order of appearance. */
  readonly versions: ReadonlyArray<string>
  readonly cwd: string | null
  /** 1.x `summary` line (a title, not a compaction). */
  readonly title: string | null
  /** Models of the main thread's requests, in order of first use. */
  readonly models: ReadonlyArray<string>
  readonly file: FileStats
  readonly children: ReadonlyArray<SubagentSession>
}

export interface SubagentFile {
  /** File name, e.g. `agent-a93ccab.jsonl` or `agent-acompact-70d8e7.jsonl`. */
  readonly name: string
  readonly parsed: ParsedTranscript
}

function distinct(values: Iterable<string | null>): string[] {
  const out: string[] = []
  for (const v of values) if (v !== null && !out.includes(v)) out.push(v)
  return out
}

export function importSession(main: ParsedTranscript, subagentFiles: ReadonlyArray<SubagentFile> = []): ImportedSession {
  const records = main.records
  const index = indexThread(records)
  const all = collectRequests(records)
  const requests = all.filter((r) => !r.isSidechain)
  const checkpoints = findCheckpoints(records, requests)
  let sessionId: string | null = null
  let cwd: string | null = null
  const versions: Array<string | null> = []
  let title: string | null = null
  for (const r of records) {
    if (r.type === 'summary') title ??= r.summary
    if (r.type === 'other' || r.type === 'summary' || r.type === 'file-history-snapshot') continue
    sessionId ??= r.sessionId
    cwd ??= r.cwd
    if (r.version !== null && !versions.includes(r.version)) versions.push(r.version)
  }
  let tipUuid: string | null = null
  for (const r of records) if ((r.type === 'user' || r.type === 'assistant') && !r.isSidechain && r.uuid !== null) tipUuid = r.uuid
  const thread = { kind: 'main' as const, id: sessionId ?? '', requests, checkpoints, index, tipUuid }
  const children: SubagentSession[] = [
    ...inlineSidechains(all, thread),
    ...subagentFiles.map((f) => fileSubagent(f, records, thread)),
  ]
  return {
    ...thread,
    sessionId,
    versions: distinct(versions),
    cwd,
    title,
    models: distinct(requests.map((r) => r.model)),
    file: fileStats(main, all, index),
    children,
  }
}

/** Convenience for tests and the command line: parse and import text already in memory. */
export function importSessionText(
  text: string,
  subagents: ReadonlyArray<{ readonly name: string; readonly text: string }> = [],
  options: ParserOptions = {},
): ImportedSession {
  return importSession(
    parseTranscript(text, options),
    subagents.map((s) => ({ name: s.name, parsed: parseTranscript(s.text, options) })),
  )
}
