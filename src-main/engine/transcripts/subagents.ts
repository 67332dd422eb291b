/**
 * Subagents as child sessions linked to the parent.
 *
 * 2.x writes each subagent to `<session>/subagents/agent-<id>.jsonl` (every line `isSidechain: true`, `agentId`);
 * the parent links to it through `progress/agent_progress {agentId}` → `parentToolUseID` and through the Task
 * result's `toolUseResult.agentId`. `agent-acompact-*` is the compaction request itself. 1.x kept subagent lines
 * inline in the session file with `isSidechain: true`, one root per subagent, linked only by the Task prompt text.
 * (real-material.md §1.2.)
 */
import { findCheckpoints } from './checkpoints'
import { isObject, str } from './blocks'
import { fileStats } from './file-stats'
import type { TranscriptRecord } from './records'
import { collectRequests, type TranscriptRequest } from './requests'
import type { SubagentFile, SubagentSession, TranscriptThread } from './session'
import { indexThread, walkChain } from './thread'

/** Task tool calls in the parent's responses, by the prompt they gave (the tool was renamed Agent in later versions). */
function taskCallsByPrompt(requests: ReadonlyArray<TranscriptRequest>): Map<string, string[]> {
  const byPrompt = new Map<string, string[]>()
  for (const request of requests) {
    for (const block of request.response) {
      if (block.type !== 'tool_use' || (block.name !== 'Task' && block.name !== 'Agent')) continue
      const prompt = isObject(block.input) ? str(block.input.prompt) : null
      if (prompt === null) continue
      const ids = byPrompt.get(prompt) ?? []
      ids.push(block.id)
      byPrompt.set(prompt, ids)
    }
  }
  return byPrompt
}

/** 1.x: groups the file's sidechain requests by the root their chain leads to; one group per subagent run. */
export function inlineSidechains(
  fileRequests: ReadonlyArray<TranscriptRequest>,
  parent: TranscriptThread,
): SubagentSession[] {
  const sidechain = fileRequests.filter((r) => r.isSidechain)
  if (sidechain.length === 0) return []
  const groups = new Map<string, TranscriptRequest[]>()
  const roots = new Map<string, TranscriptRecord>()
  for (const request of sidechain) {
    const chain = walkChain(parent.index, request.contextTipUuid)
    const root = chain.records[0]
    const rootUuid = root?.uuid ?? request.key
    if (root !== undefined) roots.set(rootUuid, root)
    const group = groups.get(rootUuid) ?? []
    group.push(request)
    groups.set(rootUuid, group)
  }
  const calls = taskCallsByPrompt(parent.requests)
  const children: SubagentSession[] = []
  for (const [rootUuid, requests] of groups) {
    const root = roots.get(rootUuid)
    let parentToolUseId: string | null = null
    if (root?.type === 'user' && root.isPlainText) {
      const prompt = root.content[0]?.type === 'text' ? root.content[0].text : ''
      // Two Task calls may share a prompt: hand them out in order.
      parentToolUseId = calls.get(prompt)?.shift() ?? null
    }
    children.push({
      kind: 'sidechain',
      id: rootUuid,
      requests,
      // 1.x compactions are session-level (compact_boundary lines are never sidechain lines).
      checkpoints: [],
      index: parent.index,
      source: 'inline',
      fileName: null,
      parentToolUseId,
      checkpointIndex: null,
      file: null,
    })
  }
  return children
}

function taskToolUseFor(agentId: string, parentRecords: ReadonlyArray<TranscriptRecord>): string | null {
  for (const r of parentRecords) {
    if (r.type === 'progress' && r.progressAgentId === agentId && r.parentToolUseId !== null) return r.parentToolUseId
  }
  for (const r of parentRecords) {
    if (r.type !== 'user' || !isObject(r.toolUseResult) || r.toolUseResult.agentId !== agentId) continue
    const result = r.content.find((b) => b.type === 'tool_result')
    if (result?.type === 'tool_result') return result.tool_use_id
  }
  return null
}

/**
 * The checkpoint a compaction request produced: the first boundary after the last parent line its conversation
 * continued from (the boundary's `logicalParentUuid` is not always a line of the file), else the first boundary
 * written after the request.
 */
function checkpointFor(child: TranscriptThread, parent: TranscriptThread): number | null {
  const first = child.requests[0]
  if (first === undefined) return null
  let parentLeafLine = -1
  for (const record of walkChain(child.index, first.contextTipUuid).records) {
    if (record.uuid !== null && parent.index.get(record.uuid) === record) parentLeafLine = Math.max(parentLeafLine, record.line)
  }
  const byLine = parent.checkpoints.findIndex((c) => c.kind === 'compact' && c.line > parentLeafLine)
  if (parentLeafLine >= 0 && byLine >= 0) return byLine
  const at = first.firstLineAtMs
  if (at === null) return null
  const byTime = parent.checkpoints.findIndex((c) => c.kind === 'compact' && c.atMs !== null && c.atMs >= at)
  return byTime >= 0 ? byTime : null
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/

export function fileSubagent(
  file: SubagentFile,
  parentRecords: ReadonlyArray<TranscriptRecord>,
  parent: TranscriptThread,
): SubagentSession {
  const records = file.parsed.records
  // The compaction request continues the parent's conversation, so its chain is resolved through the parent.
  const index = indexThread(records, parent.index)
  const requests = collectRequests(records)
  let agentId: string | null = null
  for (const r of records) {
    if ('agentId' in r && r.agentId !== null) {
      agentId = r.agentId
      break
    }
  }
  agentId ??= AGENT_FILE.exec(file.name)?.[1] ?? file.name
  const kind = agentId.startsWith('acompact') ? 'compaction' : 'task'
  const thread: TranscriptThread = { kind, id: agentId, requests, checkpoints: findCheckpoints(records, requests), index }
  return {
    ...thread,
    kind,
    source: 'file',
    fileName: file.name,
    parentToolUseId: kind === 'task' ? taskToolUseFor(agentId, parentRecords) : null,
    checkpointIndex: kind === 'compaction' ? checkpointFor(thread, parent) : null,
    file: fileStats(file.parsed, requests, index),
  }
}
