/**
 * The files offered back after a compaction (docs/compaction.md "Applying: what happens at a checkpoint"): the few
 * the model read or changed most recently in the conversation it sees, whose content the summary replaced, read
 * again as they are now with read_file — at most 5 files, 5,000 tokens each, 50,000 in all. A file over its share is
 * named, not shown. The reads' effects are kept by file: only those of the files the checkpoint finally shows go into
 * the tools' memory (the checkpoint may name a file instead, to make the context shrink), so a later read of the same
 * lines is answered "unchanged" only because they really are in the context.
 */
import type { Entry } from '../../engine/conversation/entries'
import { modelView } from '../../engine/conversation/history'
import type { ReofferedFile } from '../../engine/compaction/head'
import type { CompactionSettings } from '../../engine/compaction/settings'
import { estimateTokens } from '../../engine/prompt/estimate'
import type { ToolExecutor } from '../../engine/tools/executor'
import { isUnchangedRead } from '../../engine/tools/render'
import { forgetReadsAtCompaction, type ToolSessionState } from '../../engine/tools/session-state'
import type { ToolEffect } from '../../engine/tools/types'

const FILE_TOOLS = new Set(['read_file', 'edit_file', 'write_file'])

/** "./src/a.ts" and "src//a.ts" are "src/a.ts": one file, whichever way the model wrote it. */
function normalise(path: string): string {
  const parts: string[] = []
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..' && parts.length > 0 && parts.at(-1) !== '..') parts.pop()
    else parts.push(part)
  }
  return (path.startsWith('/') ? '/' : '') + parts.join('/')
}

/**
 * Paths of the files touched most recently, newest first, skipping those whose read the model still sees. A kept
 * read answered "unchanged since your last read" shows nothing itself: it points at an earlier read, which this
 * compaction may summarise away, so it does not count as seen (the file is offered again, and the pointer then
 * finds the offered copy before it).
 *
 * Only the model's calls in the conversation it sees now count: those from the last checkpoint's view on. A call an
 * earlier checkpoint summarised had its file offered back then; that offer is the app's, not a use of the file, so a
 * file nothing has read or changed since is not offered again, and a file once read does not ride along from one
 * compaction to the next for the rest of the session.
 */
export function recentFiles(sessionEntries: ReadonlyArray<Entry>, keptEntryIds: ReadonlySet<string>, max: number, alreadySent: ReadonlySet<string> = new Set()): string[] {
  const entries = modelView(sessionEntries).entries
  const out: string[] = []
  const skip = new Set<string>(alreadySent)
  const results = new Map<string, Extract<Entry, { kind: 'tool_result' }>>()
  for (const e of entries) if (e.kind === 'tool_result') results.set(e.toolUseId, e)
  const shows = (toolUseId: string): boolean => {
    const result = results.get(toolUseId)
    return result !== undefined && !result.isError && !isUnchangedRead(result.content)
  }
  for (let i = entries.length - 1; i >= 0 && out.length < max; i--) {
    const e = entries[i]!
    if (e.kind !== 'assistant_message') continue
    for (const b of [...e.content].reverse()) {
      if (b.type !== 'tool_use' || !FILE_TOOLS.has(b.name)) continue
      const given = (b.input as { path?: unknown } | null)?.path
      if (typeof given !== 'string' || given === '') continue
      const path = normalise(given)
      if (keptEntryIds.has(e.id) && b.name === 'read_file' && shows(b.id)) skip.add(path)
      if (skip.has(path) || out.includes(path)) continue
      out.push(path)
      if (out.length >= max) break
    }
  }
  return out
}

export async function reofferFiles(input: {
  readonly entries: ReadonlyArray<Entry>
  readonly keptEntryIds: ReadonlySet<string>
  /**
   * Paths (relative to the root) the system prompt sends whole after the compaction: the instruction files of the
   * session block. Offering one again would send its text twice.
   */
  readonly alreadySent?: ReadonlySet<string>
  readonly tools: ToolExecutor
  readonly toolState: ToolSessionState
  readonly settings: CompactionSettings
  readonly signal: AbortSignal
}): Promise<{ files: ReofferedFile[]; readEffects: ReadonlyMap<string, ReadonlyArray<ToolEffect>> }> {
  const { settings } = input
  const files: ReofferedFile[] = []
  const readEffects = new Map<string, ReadonlyArray<ToolEffect>>()
  let total = 0
  // No read may be answered "unchanged" here: the earlier reads are about to leave the context.
  const state = forgetReadsAtCompaction(input.toolState)
  for (const [i, path] of recentFiles(input.entries, input.keptEntryIds, settings.reofferMaxFiles, input.alreadySent).entries()) {
    if (input.signal.aborted) break
    const outcome = await input.tools.execute({ id: `reoffer_${i}`, name: 'read_file', input: { path } }, { signal: input.signal, sessionState: state })
    if (outcome.kind !== 'ok') continue
    const tokens = estimateTokens(outcome.content)
    if (tokens > settings.reofferFileTokens || total + tokens > settings.reofferTotalTokens) {
      files.push({ path, text: null, tokens })
      continue
    }
    total += tokens
    files.push({ path, text: outcome.content, tokens })
    readEffects.set(path, outcome.effects)
  }
  return { files, readEffects }
}

/** The effects of the reads whose text the checkpoint shows: a file it only names is not in the model's context. */
export function effectsOfShownFiles(readEffects: ReadonlyMap<string, ReadonlyArray<ToolEffect>>, shown: ReadonlyArray<{ readonly path: string; readonly offered: 'content' | 'path_only' }>): ToolEffect[] {
  return shown.flatMap((f) => (f.offered === 'content' ? (readEffects.get(f.path) ?? []) : []))
}
