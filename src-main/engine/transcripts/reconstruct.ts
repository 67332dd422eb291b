/**
 * Each request as a pass: its usage, model, time, response, and the messages it can be reconstructed to have
 * carried.
 *
 * Reconstructed, not recorded: Claude Code does not write its system prompt, its tool definitions or the reminders
 * it injects at request time (CLAUDE.md arrives as a `<system-reminder>` block that is never logged), so these
 * messages are the conversation part of the request only (real-material.md §1.2, "Not in the transcript").
 */
import type { WireMessage } from '../model/wire'
import type { TranscriptRequest } from './requests'
import type { TranscriptThread } from './session'
import { messagesFromChain, walkChain, type ChainStart } from './thread'

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

export function reconstructPasses(thread: TranscriptThread): ReadonlyArray<ReconstructedPass> {
  return thread.requests.map((r) => reconstructPass(thread, r))
}
