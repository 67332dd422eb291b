/**
 * A long conversation written straight into a store, for the measurements of long sessions: turns of a user message,
 * a tool call, its result, an answer and the turn's end, with a compaction every so many turns, as a real session
 * that went on for days has.
 */
import type { CheckpointBody } from '../../src-main/engine/conversation/checkpoint'
import type { EntryBody, PassId } from '../../src-main/engine/conversation/entries'
import type { Store } from '../../src-main/node/store'

/** A line of varied text, so the stored bodies compress as real conversation does, not to nothing. */
export const line = (i: number, k: number) => `line ${i}.${k}: ${Math.sin(i * 1000 + k).toString(36)} some words to fill the line`

/** A compaction's checkpoint after turn `i`: the conversation goes on from a one-line summary. */
export function checkpointAfter(i: number): CheckpointBody {
  return {
    kind: 'checkpoint',
    trigger: 'auto',
    focus: null,
    instructions: null,
    stage: 'summary',
    view: { head: [{ type: 'text', text: `Summary of the conversation up to turn ${i}.` }], startEntryId: null, replaced: [], dropped: [] },
    summary: `Summary of the conversation up to turn ${i}.`,
    summaryEdited: false,
    summaryForm: null,
    trimmed: [],
    replaced: null,
    reinjected: { files: [], pins: [], sessionBlock: null },
    tokens: { before: { real: null, estimated: 0 }, after: { estimated: 0 }, windowTokens: 200_000, targetTokens: 0 },
    costUsd: 0,
    summaryPassIds: [],
    notes: [],
  }
}

/** One turn's entries: the user asks, the model reads a file (`resultLines` lines back), then answers. */
function turn(i: number, resultLines: number): EntryBody[] {
  const result = Array.from({ length: resultLines }, (_, k) => line(i, k)).join('\n')
  const passId = `pas_long${i}` as PassId
  return [
    { kind: 'user_message', content: [{ type: 'text', text: `please look at ${line(i, 0)}` }] },
    { kind: 'assistant_message', passId, content: [{ type: 'tool_use', id: `toolu_long${i}`, name: 'read_file', input: { path: `file${i % 10}.txt` } }], stopReason: 'tool_use', partial: false },
    { kind: 'tool_result', toolUseId: `toolu_long${i}`, toolName: 'read_file', content: result, isError: false, outcome: 'ran' },
    { kind: 'assistant_message', passId, content: [{ type: 'text', text: `Read it. ${line(i, 1)}` }], stopReason: 'end_turn', partial: false },
    { kind: 'turn_ended', reason: 'end_turn' },
  ]
}

/** Appends `turns` turns (five entries each) to a session, a checkpoint after every `turnsPerCompaction`. */
export function appendLongConversation(store: Store, sessionId: string, turns: number, options: { turnsPerCompaction: number; resultLines: number; at: number }): void {
  store.transaction(() => {
    for (let i = 0; i < turns; i++) {
      store.entries.append(sessionId, turn(i, options.resultLines), options.at)
      if ((i + 1) % options.turnsPerCompaction === 0) store.entries.append(sessionId, [checkpointAfter(i)], options.at)
    }
  })
}
