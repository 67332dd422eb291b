/**
 * Claude Code transcript import, public API (docs/claude-code-import.md). Pure: JSONL text in, an imported session
 * (requests, checkpoints, subagents), reconstructed passes, cache attribution and totals out.
 */
export { TranscriptParser, parseTranscript } from './parser'
export type { ParsedTranscript, ParserOptions } from './parser'
export { DEFAULT_MAX_LINE_CHARS, parseLine } from './parse-line'
export { SKIP_REASONS } from './records'
export type {
  TranscriptRecord,
  ThreadRecord,
  UserRecord,
  AssistantRecord,
  SystemRecord,
  SummaryRecord,
  ProgressRecord,
  FileHistorySnapshotRecord,
  OtherRecord,
  CompactMetadata,
  SkipReason,
  SkipCounts,
} from './records'
export { collectRequests, requestKey } from './requests'
export type { TranscriptRequest } from './requests'
export { findCheckpoints, contextTokens } from './checkpoints'
export type { TranscriptCheckpoint } from './checkpoints'
export { importSession, importSessionText } from './session'
export type { ImportedSession, SubagentSession, SubagentFile, TranscriptThread, ThreadKind } from './session'
export { skippedCounts, skippedReasons } from './file-stats'
export type { FileStats } from './file-stats'
export { reconstructPass, reconstructPasses } from './reconstruct'
export type { ReconstructedPass } from './reconstruct'
export { indexThread, walkChain, messagesFromChain } from './thread'
export type { ThreadIndex, Chain, ChainStart } from './thread'
export { attributeRequests, cacheReport, CACHE_TTL_5M_MS, CACHE_TTL_1H_MS } from './attribution'
export type { RequestAttribution, CacheOutcome, MissCause, ThreadCacheReport } from './attribution'
export { sumUsage, sumByModel, cachedShare } from './totals'
export type { PriceFn, UsageTotals } from './totals'
export { summarizeSession } from './summary'
export type { SessionSummary, UsageSummary, CompactionSummary, SubagentSummary } from './summary'
