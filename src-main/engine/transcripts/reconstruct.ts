/**
 * Each request as a pass: its usage, model, time, response, and the messages it can be reconstructed to have
 * carried.
 *
 * Reconstructed, not recorded: Claude Code does not write its system prompt, its tool definitions or the reminders
 * it injects at request time (CLAUDE.md arrives as a `<system-reminder>` block that is never logged), so these
 * messages are the conversation part of the request only (real-material.md §1.2, "Not in the transcript").
 *
 * `reconstructPass` walks one request's chain and folds it (thread.ts). `reconstructPasses` gives the same result
 * for a whole thread in linear time: requests of one conversation share almost all of their history, so the fold
 * state is kept per line and each line is folded once; message lists share one growing array until branches part.
 */
import type { AssistantContentBlock, UserContentBlock, WireMessage } from '../model/wire'
import type { ThreadRecord } from './records'
import type { TranscriptRequest } from './requests'
import type { TranscriptThread } from './session'
import { answerBlocks, messagesFromChain, walkChain, type ChainStart, type ThreadIndex } from './thread'

export interface ReconstructedPass {
  readonly request: TranscriptRequest
  /** Always true: the inspector labels these "reconstructed from a transcript, not wire bytes". */
  readonly reconstructed: true
  readonly messages: ReadonlyArray<WireMessage>
  /** Where the conversation begins: the first prompt, a compaction summary, or a gap in the file. */
  readonly start: ChainStart
}

export function reconstructPass(thread: TranscriptThread, request: TranscriptRequest): ReconstructedPass {
  const chain = walkChain(thread.index, request.contextTipUuid)
  return { request, reconstructed: true, messages: messagesFromChain(chain.records, thread.index), start: chain.start }
}

/** A prefix of a shared array: appending to the newest prefix pushes in place, appending to an older one copies. */
interface SharedList {
  readonly items: WireMessage[]
  readonly length: number
}

function append(list: SharedList, items: ReadonlyArray<WireMessage>): SharedList {
  if (items.length === 0) return list
  const array = list.items.length === list.length ? list.items : list.items.slice(0, list.length)
  array.push(...items)
  return { items: array, length: array.length }
}

/** The fold of thread.ts `messagesFromChain`, as a value per line: closed messages plus the still-open pair. */
interface FoldState {
  readonly closed: SharedList
  readonly assistantId: string | null
  readonly assistant: ReadonlyArray<AssistantContentBlock>
  readonly user: ReadonlyArray<UserContentBlock>
  readonly start: ChainStart
}

function openPair(state: FoldState, index: ThreadIndex): WireMessage[] {
  const out: WireMessage[] = []
  if (state.assistant.length > 0) out.push({ role: 'assistant', content: state.assistant })
  if (state.user.length > 0) out.push({ role: 'user', content: answerBlocks(state.assistant, state.user, index) })
  return out
}

function step(state: FoldState, record: ThreadRecord, index: ThreadIndex): FoldState {
  if (record.type === 'user') {
    return record.content.length === 0 ? state : { ...state, user: [...state.user, ...record.content] }
  }
  if (record.type !== 'assistant' || record.isSynthetic) return state
  const id = record.messageId ?? record.requestId ?? record.uuid
  if (id !== null && id === state.assistantId) return state
  const whole = record.messageId === null ? undefined : index.responseBlocks(record.messageId)
  return {
    closed: append(state.closed, openPair(state, index)),
    assistantId: id,
    assistant: whole ?? record.content,
    user: [],
    start: state.start,
  }
}

const emptyState = (start: ChainStart): FoldState => ({ closed: { items: [], length: 0 }, assistantId: null, assistant: [], user: [], start })

class ThreadFolder {
  private readonly states = new Map<string, FoldState>()

  constructor(private readonly index: ThreadIndex) {}

  /** The fold state after `tipUuid`, or null when the climb meets a cycle (left to the plain walk). */
  stateAt(tipUuid: string | null): FoldState | null {
    if (tipUuid === null) return emptyState({ kind: 'root' })
    const climb: ThreadRecord[] = []
    const seen = new Set<string>()
    let uuid: string | null = tipUuid
    let state: FoldState | undefined
    while (state === undefined) {
      if (uuid === null) {
        state = emptyState({ kind: 'root' })
        break
      }
      const known = this.states.get(uuid)
      if (known !== undefined) {
        state = known
        break
      }
      if (seen.has(uuid)) return null
      const record = this.index.get(uuid)
      if (record === undefined) {
        state = emptyState({ kind: 'broken', missingUuid: uuid })
        break
      }
      seen.add(uuid)
      climb.push(record)
      if (record.type === 'system' && record.subtype === 'compact_boundary') {
        state = emptyState({ kind: 'compaction', boundaryUuid: uuid })
        break
      }
      uuid = record.parentUuid
    }
    for (let i = climb.length - 1; i >= 0; i--) {
      const record = climb[i]!
      state = step(state, record, this.index)
      this.states.set(record.uuid!, state)
    }
    return state
  }
}

export function reconstructPasses(thread: TranscriptThread): ReadonlyArray<ReconstructedPass> {
  const folder = new ThreadFolder(thread.index)
  return thread.requests.map((request) => {
    const state = folder.stateAt(request.contextTipUuid)
    if (state === null) return reconstructPass(thread, request)
    const messages = state.closed.items.slice(0, state.closed.length)
    messages.push(...openPair(state, thread.index))
    return { request, reconstructed: true, messages, start: state.start }
  })
}

/**
 * The conversation as it stood at a line (`tipUuid`): the messages a request sent from there would carry. Used for
 * what the session wrote after its last request (the results of its last calls, an interruption). Null when the
 * line's chain is broken off or loops.
 */
export function conversationAt(thread: TranscriptThread, tipUuid: string): WireMessage[] | null {
  const state = new ThreadFolder(thread.index).stateAt(tipUuid)
  if (state === null || state.start.kind === 'broken') return null
  return [...state.closed.items.slice(0, state.closed.length), ...openPair(state, thread.index)]
}
