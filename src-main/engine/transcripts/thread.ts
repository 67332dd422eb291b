/**
 * The uuid/parentUuid tree of a transcript, and the messages a request can be reconstructed to have carried.
 *
 * To get the conversation a request was sent with, walk back from the line it continued from to a root (the first
 * line, a sidechain's first line, or a compact_boundary, which starts a new root after a compaction), then fold the
 * message lines into wire messages. Branches from rewinds sit side by side in the tree; each request follows its own.
 */
import type { AssistantContentBlock, ToolResultBlock, UserContentBlock, WireMessage } from '../model/wire'
import { isThreadRecord, type ThreadRecord, type TranscriptRecord } from './records'

export interface ThreadIndex {
  get(uuid: string): ThreadRecord | undefined
  /** The result written for a tool call, wherever it sits in the tree. */
  toolResult(toolUseId: string): ToolResultBlock | undefined
  /** Every block of one response (`message.id`), in the order its lines were written, wherever they sit. */
  responseBlocks(messageId: string): ReadonlyArray<AssistantContentBlock> | undefined
  /** Lines whose uuid had been seen already (kept: the first). */
  readonly duplicateUuids: number
}

export function indexThread(records: ReadonlyArray<TranscriptRecord>, fallback?: ThreadIndex): ThreadIndex {
  const byUuid = new Map<string, ThreadRecord>()
  const results = new Map<string, ToolResultBlock>()
  const responses = new Map<string, AssistantContentBlock[]>()
  let duplicateUuids = 0
  for (const record of records) {
    if (!isThreadRecord(record) || record.uuid === null) continue
    if (byUuid.has(record.uuid)) {
      duplicateUuids++
      continue
    }
    byUuid.set(record.uuid, record)
    if (record.type === 'assistant' && record.messageId !== null && !record.isSynthetic) {
      const blocks = responses.get(record.messageId)
      if (blocks === undefined) responses.set(record.messageId, [...record.content])
      else blocks.push(...record.content)
    }
    if (record.type !== 'user') continue
    for (const block of record.content) {
      if (block.type === 'tool_result' && !results.has(block.tool_use_id)) results.set(block.tool_use_id, block)
    }
  }
  return {
    // A subagent's lines may continue from lines of the parent session (the compaction request does).
    get: (uuid) => byUuid.get(uuid) ?? fallback?.get(uuid),
    toolResult: (id) => results.get(id) ?? fallback?.toolResult(id),
    responseBlocks: (id) => responses.get(id) ?? fallback?.responseBlocks(id),
    duplicateUuids,
  }
}

/** How the walk back from a tip ended. */
export type ChainStart =
  | { readonly kind: 'root' }
  /** A compact_boundary: everything before it was replaced by the compaction summary. */
  | { readonly kind: 'compaction'; readonly boundaryUuid: string }
  /** A parentUuid that is not in the file (a truncated or edited transcript), or a cycle. */
  | { readonly kind: 'broken'; readonly missingUuid: string }

export interface Chain {
  /** Oldest first. Only the lines on the path; siblings from other branches are not included. */
  readonly records: ReadonlyArray<ThreadRecord>
  readonly start: ChainStart
}

export function walkChain(index: ThreadIndex, tipUuid: string | null): Chain {
  const path: ThreadRecord[] = []
  const seen = new Set<string>()
  let uuid = tipUuid
  let start: ChainStart = { kind: 'root' }
  while (uuid !== null) {
    const record = index.get(uuid)
    if (record === undefined || seen.has(uuid)) {
      start = { kind: 'broken', missingUuid: uuid }
      break
    }
    seen.add(uuid)
    path.push(record)
    if (record.type === 'system' && record.subtype === 'compact_boundary') {
      start = { kind: 'compaction', boundaryUuid: uuid }
      break
    }
    uuid = record.parentUuid
  }
  path.reverse()
  return { records: path, start }
}

/**
 * The user blocks that answer an assistant message: its tool results first, in the order of its tool calls (the API
 * requires results to lead the user message), then anything else the user message held.
 */
export function answerBlocks(
  assistant: ReadonlyArray<AssistantContentBlock>,
  user: ReadonlyArray<UserContentBlock>,
  index: ThreadIndex,
): UserContentBlock[] {
  const callIds: string[] = []
  for (const block of assistant) if (block.type === 'tool_use') callIds.push(block.id)
  if (callIds.length === 0) return [...user]
  const present = new Map<string, ToolResultBlock>()
  for (const block of user) if (block.type === 'tool_result') present.set(block.tool_use_id, block)
  const answered: UserContentBlock[] = []
  for (const id of callIds) {
    const result = present.get(id) ?? index.toolResult(id)
    if (result !== undefined) answered.push(result)
  }
  const calls = new Set(callIds)
  for (const block of user) if (block.type !== 'tool_result' || !calls.has(block.tool_use_id)) answered.push(block)
  return answered
}

/**
 * Folds chain lines into wire messages, in the order the API was sent them.
 *
 * Claude Code writes one response as one line per block and starts running a tool as soon as its block is written,
 * so the lines of a response with parallel calls form a small tree (tool_use A → result A, tool_use A → tool_use B →
 * result B …) of which only one branch is on the path to the next request. So a response on the path contributes
 * all the blocks of its `message.id`, and its results (found by tool_use id when not on the path) become the next
 * user message. Consecutive user lines merge, as the API itself merges consecutive user turns.
 */
export function messagesFromChain(chain: ReadonlyArray<ThreadRecord>, index: ThreadIndex): WireMessage[] {
  const messages: WireMessage[] = []
  let assistantId: string | null = null
  let assistant: AssistantContentBlock[] = []
  let user: UserContentBlock[] = []
  const flush = (): void => {
    if (assistant.length > 0) messages.push({ role: 'assistant', content: assistant })
    // Results are completed only when the path went on past the response: a request never carries the answer to
    // calls made after it.
    if (user.length > 0) messages.push({ role: 'user', content: answerBlocks(assistant, user, index) })
    assistant = []
    user = []
  }
  for (const record of chain) {
    if (record.type === 'user') {
      if (record.content.length > 0) user.push(...record.content)
    } else if (record.type === 'assistant') {
      if (record.isSynthetic) continue
      const id = record.messageId ?? record.requestId ?? record.uuid
      if (id !== null && id === assistantId) continue
      flush()
      assistantId = id
      const whole = record.messageId === null ? undefined : index.responseBlocks(record.messageId)
      assistant.push(...(whole ?? record.content))
    }
  }
  flush()
  return messages
}
