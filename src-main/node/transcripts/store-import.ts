/**
 * A Claude Code session imported into the store: a Loupe session (origin `transcript`) whose passes are the
 * transcript's requests, reconstructed. Each pass's request body is the JSON of the reconstructed request
 * (`{model, messages}`: the conversation only, never wire bytes, marked `source: 'transcript'`), with the request's
 * usage, model, times, cost and the transcript-level cache attribution. Compactions become checkpoint entries;
 * subagents and compaction calls become child sessions linked by `parent_session_id`.
 *
 * Importing the same file again does nothing when it has not changed, and replaces the earlier import when it has
 * (a session still being written grows).
 */
import { realpath, stat } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import type { Project } from '../../../src-preload/contract'
import { cleanName } from '../../../src-preload/names'
import type { EntryBody } from '../../engine/conversation/entries'
import type { WireMessage } from '../../engine/model/wire'
import { attributeRequests } from '../../engine/transcripts/attribution'
import type { ImportedSession, SubagentSession, TranscriptThread } from '../../engine/transcripts/session'
import { skippedCounts, type FileStats } from '../../engine/transcripts/file-stats'
import { conversationAt, reconstructPasses, type ReconstructedPass } from '../../engine/transcripts/reconstruct'
import { typedPrompt } from '../../engine/transcripts/typed-prompt'
import { summarizeSession, type SessionSummary } from '../../engine/transcripts/summary'
import type { PriceFn } from '../../engine/transcripts/totals'
import { costUsd, findModel } from '../model/models'
import type { Store } from '../store'
import { projectName } from '../store/projects'
import type { PassKind } from '../store/passes'
import { loadSession, noConversationMessage } from './load'
import { importedFrom, markSession, moveContinuations, type SessionOriginRow, type TranscriptRef } from './origins'
import { passAttribution } from './pass-attribution'
import { PassBodies } from './pass-body'
import { lockKey, withLock } from '../fs/path-lock'
import { passRecord, passTimes } from './pass-record'
import { AnswerIndex, checkpointBody, messageEntries, splitHead, stretches, type TimedBody } from './thread-entries'

export const modelPrice: PriceFn = (model, usage) => costUsd(model, usage)

export interface StoreImportOptions {
  /** Import time: the fallback for requests the transcript gives no time for. */
  readonly now: number
  /** Import into this project instead of the one for the session's working folder. */
  readonly projectId?: string
  readonly price?: PriceFn
  /** Called with the earlier import's session id before it is replaced (the host stops its runtime). */
  readonly beforeReplace?: (sessionId: string) => Promise<void>
  /** When set, the file (after resolving symlinks) must lie inside this folder: the projects folder listed. */
  readonly root?: string
}

export interface ImportedChild {
  readonly sessionId: string
  readonly kind: SubagentSession['kind']
  readonly transcriptId: string
  /** `file`: a 2.x subagent file (`fileName`); `inline`: 1.x sidechain lines inside the session file. */
  readonly source: 'file' | 'inline'
  readonly fileName: string | null
  readonly passes: number
}

export interface StoreImportResult {
  readonly status: 'imported' | 'unchanged' | 'replaced'
  readonly sessionId: string
  readonly projectId: string
  readonly title: string
  readonly passes: number
  readonly entries: number
  readonly checkpoints: number
  readonly children: ReadonlyArray<ImportedChild>
  /** Totals as `npm run import -- --summary` prints them (read / write / uncached, $, compactions …). */
  readonly summary: SessionSummary
  readonly unreadableSubagents: ReadonlyArray<{ readonly path: string; readonly kind: string }>
  /** `replaced`: the earlier import of the file, deleted with its children (the session's id is a new one). */
  readonly replaced?: { readonly sessionId: string; readonly projectId: string }
}

export class TranscriptImportError extends Error {
  constructor(
    readonly kind: 'not_found' | 'unreadable' | 'too_large' | 'outside_root' | 'not_a_file',
    message: string,
  ) {
    super(message)
  }
}

const TITLE_CHARS = 60

/** The first thing the user typed (a slash command with its arguments, not a caveat or reminder), for a title. */
function firstPrompt(passes: ReadonlyArray<ReconstructedPass>): string | null {
  const first = passes[0]?.messages ?? []
  for (const m of first) {
    if (m.role !== 'user') continue
    for (const b of m.content) {
      const typed = b.type === 'text' ? typedPrompt(b.text) : null
      if (typed !== null) return typed
    }
  }
  return null
}

/** A name's words from a transcript's text: on one line, without what a name cannot show (decision 0051), cut. */
function clip(text: string): string {
  return cleanName(text, TITLE_CHARS)
}

/** The first of `candidates` that has something to show, as a name's words. */
function firstShown(...candidates: ReadonlyArray<string | null | undefined>): string | null {
  for (const candidate of candidates) {
    const words = candidate ? clip(candidate) : ''
    if (words !== '') return words
  }
  return null
}

/**
 * A child session's name: what its parent asked it to do (the Task or Agent call's `description`, else the first line
 * of its `prompt`) when the call that started it is known, so a parent's subagents can be told apart; else its id.
 */
function childTitle(child: SubagentSession, asked: ReadonlyMap<string, string>): string {
  const task = child.parentToolUseId === null ? null : firstShown(asked.get(child.parentToolUseId))
  switch (child.kind) {
    case 'compaction':
      return `↳ compaction call ${child.id}`
    case 'task':
      return task ? `↳ subagent: ${task}` : `↳ subagent ${child.id}`
    case 'sidechain':
      return task ? `↳ sidechain: ${task}` : `↳ sidechain ${child.id.slice(0, 8)}`
  }
}

/** What each subagent was asked to do, by the id of the tool call in the parent's answers that started it. */
function subagentTasks(thread: TranscriptThread): Map<string, string> {
  const asked = new Map<string, string>()
  for (const request of thread.requests) {
    for (const block of request.response) {
      if (block.type !== 'tool_use' || (block.name !== 'Task' && block.name !== 'Agent')) continue
      const input = block.input as { description?: unknown; prompt?: unknown } | null
      const description = typeof input?.description === 'string' ? input.description.trim() : ''
      const prompt = typeof input?.prompt === 'string' ? (input.prompt.trim().split('\n')[0] ?? '').trim() : ''
      if (description || prompt) asked.set(block.id, description || prompt)
    }
  }
  return asked
}

/** The project for the session's working folder when it exists here, else one made for the transcript's folder. */
/** The session's working folder, resolved, when it is a folder on this machine; null when it is not (or gone). */
async function workingFolder(session: ImportedSession): Promise<string | null> {
  if (session.cwd === null) return null
  try {
    const real = await realpath(session.cwd)
    return (await stat(real)).isDirectory() ? real : null
  } catch {
    // The folder is on another machine or gone: the transcript's folder stands in for it.
    return null
  }
}

/**
 * The project the import lands in: the working folder's, else one for the transcript's folder. Synchronous, so it
 * runs inside the import's transaction: an import that fails adds no project and shows no hidden one again.
 */
function projectFor(store: Store, session: ImportedSession, folder: string | null, transcriptDir: string, now: number): Project {
  if (folder !== null) return store.projects.open(folder, now)
  const project = store.projects.open(transcriptDir, now)
  // Still named after its folder (not yet after a session's cwd, nor renamed): the first import names it.
  if (project.name === projectName(basename(transcriptDir), transcriptDir)) {
    const cwdName = session.cwd !== null ? cleanName(basename(session.cwd)) : ''
    store.projects.rename(project.id, `${cwdName || basename(transcriptDir)} (Claude Code)`)
    return store.projects.get(project.id)!
  }
  return project
}

interface WrittenThread {
  readonly passes: ReadonlyArray<ReconstructedPass>
  readonly passIds: ReadonlyArray<string>
  readonly costUsd: number
}

function writePasses(store: Store, sessionId: string, thread: TranscriptThread, kind: PassKind, price: PriceFn, now: number, passes = reconstructPasses(thread)): WrittenThread {
  const attributions = attributeRequests(thread, price)
  const passIds: string[] = []
  const bodies = new PassBodies()
  let cost = 0
  let previousDoneAt = now
  passes.forEach((pass, i) => {
    const record = passRecord(sessionId, kind, thread, pass, price, previousDoneAt)
    const summary = store.passes.insertSplit(record, bodies.body(pass.request.model, pass.messages))
    store.passes.setAttribution(summary.id, passAttribution(attributions[i]!, i > 0 ? passes[i - 1]!.request.model : null))
    passIds.push(summary.id)
    cost += record.costUsd ?? 0
    previousDoneAt = record.doneAt
  })
  return { passes, passIds, costUsd: cost }
}

interface CompactionCall {
  readonly passIds: ReadonlyArray<string>
  readonly costUsd: number
}

/**
 * What the transcript holds after the conversation its last request carried and the answer it got (`sent`): the
 * messages up to the thread's last line, when they go on from `sent` unchanged. Empty otherwise (a rewind, a chain
 * broken off), so the entries never contradict what was sent.
 */
function afterLastRequest(thread: TranscriptThread, sent: ReadonlyArray<WireMessage>): WireMessage[] {
  if (!thread.tipUuid) return []
  const whole = conversationAt(thread, thread.tipUuid)
  if (whole === null || whole.length <= sent.length) return []
  for (let i = 0; i < sent.length; i++) if (JSON.stringify(whole[i]) !== JSON.stringify(sent[i])) return []
  return whole.slice(sent.length)
}

/** Appends the thread's conversation (and its compactions as checkpoints); returns entries and checkpoints written. */
function writeEntries(store: Store, sessionId: string, thread: TranscriptThread, written: WrittenThread, calls: ReadonlyMap<number, CompactionCall>, now: number): { entries: number; checkpoints: number } {
  const answers = new AnswerIndex(written.passes)
  // The first prompt was written just before the first request was sent.
  let lastAt = written.passes[0] === undefined ? now : passTimes(thread, written.passes[0], now).queuedAt
  let entries = 0
  let checkpoints = 0
  let previous = { fromEntryId: null as string | null, toEntryId: null as string | null, entries: 0, messages: 0 }
  // Entries that happened at the same time (the results of one message, its blocks) go in one call: the same rows,
  // written with one set of statements.
  const append = (timed: ReadonlyArray<TimedBody>): string[] => {
    const ids: string[] = []
    let group: EntryBody[] = []
    let groupAt = lastAt
    const flush = (): void => {
      if (group.length > 0) for (const e of store.entries.append(sessionId, group, groupAt)) ids.push(e.id)
      group = []
    }
    for (const t of timed) {
      const at = Math.max(lastAt, t.atMs ?? lastAt)
      if (at !== groupAt) flush()
      lastAt = groupAt = at
      group.push(t.body)
    }
    flush()
    entries += ids.length
    return ids
  }
  const all = stretches(written.passes, thread.checkpoints)
  for (const stretch of all) {
    const last = stretch.lastPass === null ? null : written.passes[stretch.lastPass]!
    let messages: WireMessage[] = last === null ? [] : [...last.messages]
    if (last !== null && last.request.response.length > 0) messages.push({ role: 'assistant', content: last.request.response })
    if (stretch.checkpoint !== null) {
      const cp = stretch.checkpoint
      const split = last?.start.kind === 'compaction' ? splitHead(messages[0], cp.summary) : splitHead(undefined, cp.summary)
      if (last?.start.kind === 'compaction') messages = [...split.rest, ...messages.slice(1)]
      const call = calls.get(thread.checkpoints.indexOf(cp))
      const model = last?.request.model ?? written.passes[0]?.request.model ?? ''
      const body: EntryBody = checkpointBody({
        checkpoint: cp,
        head: split.head,
        replaced: previous,
        windowTokens: findModel(model)?.contextWindow ?? 200_000,
        summaryPassIds: call?.passIds ?? [],
        costUsd: call?.costUsd ?? 0,
      })
      // Before the first request that used its summary: the transcript can stamp the boundary a few milliseconds
      // after that request was sent, and the views find "the first pass after a checkpoint" by time.
      const firstAfter = written.passes.find((w) => w.request.firstLine > cp.line)
      const firstAfterAt = firstAfter === undefined ? null : passTimes(thread, firstAfter, now).queuedAt
      const atMs = cp.atMs !== null && cp.atMs !== undefined && firstAfterAt !== null ? Math.min(cp.atMs, firstAfterAt - 1) : cp.atMs
      append([{ body: split.head.length === 0 ? { ...body, view: { ...body.view, head: null } } : body, atMs }])
      checkpoints++
    }
    if (last === null) continue
    // The session may have gone on after its last request: the results of its last calls, an interruption.
    if (stretch === all.at(-1)) messages.push(...afterLastRequest(thread, messages))
    const ids = append(messageEntries(messages, { passes: written.passes, passIds: written.passIds, answers, fallbackPass: stretch.lastPass! }, lastAt))
    previous = { fromEntryId: ids[0] ?? null, toEntryId: ids.at(-1) ?? null, entries: ids.length, messages: messages.length }
  }
  return { entries, checkpoints }
}

/**
 * A file's lines that could not be read, for its session's origin (decision 0068): how many, and how many for each
 * reason. Nothing for a file read whole, or for none (an inline subagent's lines are counted with the main file's).
 */
function skippedOf(file: FileStats | null): { skippedLines?: { total: number; by: Record<string, number> } } {
  if (file === null || file.skippedTotal <= 0) return {}
  return { skippedLines: { total: file.skippedTotal, by: skippedCounts(file.skipped) } }
}

/** Writes an imported session (and its children) into `projectId`, in the caller's transaction. */
export function writeImportedSession(store: Store, session: ImportedSession, projectId: string, ref: Omit<TranscriptRef, 'threadKind' | 'parentToolUseId' | 'transcriptId'>, options: { now: number; price: PriceFn }): Omit<StoreImportResult, 'status' | 'summary' | 'unreadableSubagents'> {
  const { now, price } = options
  const main = reconstructPasses(session)
  const named = `Claude Code: ${firstShown(session.title, firstPrompt(main), session.sessionId, basename(ref.path)) ?? 'a session without a name'}`
  const createdAt = session.requests[0]?.firstLineAtMs ?? now
  const mainSession = store.sessions.create(projectId, named, createdAt)
  const title = mainSession.title
  markSession(store, mainSession.id, 'transcript', { ...ref, transcriptId: session.sessionId ?? '', threadKind: 'main', parentToolUseId: null, ...skippedOf(session.file) })
  const written = writePasses(store, mainSession.id, session, 'main', price, now, main)
  const children: ImportedChild[] = []
  const calls = new Map<number, CompactionCall>()
  const asked = subagentTasks(session)
  for (const child of session.children) {
    const s = store.sessions.create(projectId, childTitle(child, asked), child.requests[0]?.firstLineAtMs ?? createdAt)
    // A subagent's own file says what of it was left out; one written inline (1.x) is in the main file's count.
    markSession(store, s.id, 'transcript', { ...ref, transcriptId: child.id, threadKind: child.kind, parentToolUseId: child.parentToolUseId, ...skippedOf(child.file) }, mainSession.id)
    const w = writePasses(store, s.id, child, child.kind === 'compaction' ? 'summary' : 'main', price, now)
    writeEntries(store, s.id, child, w, new Map(), now)
    if (child.kind === 'compaction' && child.checkpointIndex !== null) calls.set(child.checkpointIndex, { passIds: w.passIds, costUsd: w.costUsd })
    children.push({ sessionId: s.id, kind: child.kind, transcriptId: child.id, source: child.source, fileName: child.fileName, passes: w.passIds.length })
  }
  const { entries, checkpoints } = writeEntries(store, mainSession.id, session, written, calls, now)
  return { sessionId: mainSession.id, projectId, title, passes: written.passIds.length, entries, checkpoints, children }
}

/** A number per store, so each store's imports of a file queue apart (the write's own check covers two stores). */
const storeIds = new WeakMap<Store, number>()
let storesSeen = 0

/**
 * Runs `task` after every import of the same file into the same store that started before it, under a lock of the
 * file's (fs/path-lock.ts): two imports of one file at once (two windows, or Import all while one is imported) would
 * each find no earlier import, or the same one, and each write a session. One after the other, the second finds the
 * first's session and answers `unchanged`.
 */
async function oneAtATime<T>(store: Store, path: string, task: () => Promise<T>): Promise<T> {
  let id = storeIds.get(store)
  if (id === undefined) storeIds.set(store, (id = ++storesSeen))
  return withLock(`transcript-import:${id}:${await lockKey(path)}`, task)
}

/**
 * Reads a Claude Code session file (with its subagents) and imports it into the store. Imports of one file run one
 * after the other, and the write looks again at what the store holds for the file, so a file ends with one session.
 */
export async function importTranscript(store: Store, path: string, options: StoreImportOptions): Promise<StoreImportResult> {
  return oneAtATime(store, path, () => importOnce(store, path, options))
}

async function importOnce(store: Store, path: string, options: StoreImportOptions): Promise<StoreImportResult> {
  const loaded = await loadSession(path, options.root === undefined ? {} : { root: options.root })
  if (!loaded.ok) {
    const kind = loaded.error.kind
    throw new TranscriptImportError(kind === 'not_found' || kind === 'too_large' || kind === 'outside_root' || kind === 'not_a_file' ? kind : 'unreadable', loaded.error.message)
  }
  const file = loaded.session.file
  // A file that holds no conversation: importing it would list an empty session that says nothing.
  const none = noConversationMessage(path, { lineCount: file.lineCount, skippedLines: file.skippedTotal, requests: file.requests.length, skipped: file.skipped })
  if (none !== null) throw new TranscriptImportError('not_a_file', none)
  const realPath = await realpath(path)
  const info = await stat(realPath)
  const price = options.price ?? modelPrice
  const summary = summarizeSession(loaded.session, price)
  const unreadableSubagents = loaded.unreadableSubagents
  // The earlier import of this file when it is of this very file as read now: nothing to do.
  const sameImport = (): StoreImportResult | null => {
    const found = importedFrom(store, realPath)
    if (found === null || found.ref?.kind !== 'claude-code' || found.ref.bytes !== loaded.bytes || found.ref.modifiedMs !== info.mtimeMs) return null
    // Imported before its skipped lines were recorded: recorded now, without importing it again.
    const skipped = skippedOf(file)
    if (found.ref.skippedLines === undefined && skipped.skippedLines) markSession(store, found.sessionId, 'transcript', { ...found.ref, ...skipped }, found.parentSessionId)
    const session = store.sessions.get(found.sessionId)
    if (session === null) return null
    const passes = store.passes.list(session.id).length
    return { status: 'unchanged', sessionId: session.id, projectId: session.projectId, title: session.title, passes, entries: store.entries.count(session.id), checkpoints: summary.compactions.length, children: [], summary, unreadableSubagents }
  }
  const unchanged = sameImport()
  if (unchanged !== null) return unchanged
  const existing = importedFrom(store, realPath)
  if (options.projectId !== undefined && store.projects.get(options.projectId) === null) throw new TranscriptImportError('not_found', `No project ${options.projectId}`)
  if (existing !== null) await options.beforeReplace?.(existing.sessionId)
  const folder = options.projectId === undefined ? await workingFolder(loaded.session) : null
  const ref = { kind: 'claude-code' as const, path: realPath, bytes: loaded.bytes, modifiedMs: info.mtimeMs, importedAt: options.now }
  // One transaction: the project, the session, its passes, entries and children land together or not at all. The
  // store is looked at again inside it: another writer (the command-line import) may have imported the file
  // meanwhile, and what replaces is what is there now.
  const written = store.transaction((): { kind: 'same'; result: StoreImportResult } | { kind: 'written'; replaced: SessionOriginRow | null; session: ReturnType<typeof writeImportedSession> } => {
    const same = sameImport()
    if (same !== null) return { kind: 'same', result: same }
    const current = importedFrom(store, realPath)
    const projectId = options.projectId ?? projectFor(store, loaded.session, folder, dirname(realPath), options.now).id
    if (current !== null) store.sessions.delete(current.sessionId)
    const session = writeImportedSession(store, loaded.session, projectId, ref, { now: options.now, price })
    if (current !== null) moveContinuations(store, current.sessionId, session.sessionId)
    return { kind: 'written', replaced: current, session }
  })
  if (written.kind === 'same') return written.result
  if (written.replaced) store.transaction(() => store.blobs.collectGarbage())
  const replaced = written.replaced === null ? {} : { replaced: { sessionId: written.replaced.sessionId, projectId: written.replaced.projectId } }
  return { status: written.replaced ? 'replaced' : 'imported', ...written.session, summary, unreadableSubagents, ...replaced }
}
