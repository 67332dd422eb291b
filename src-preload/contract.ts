/**
 * The one contract between the renderer and the main process.
 *
 * Every request (`noun.verb`) and every event (past tense) is declared here once, with its schema. The main
 * process parses every input with these schemas before a handler runs (src-main/rpc/dispatch.ts) and answers with
 * a `Result` envelope; nothing throws across the boundary. Both hosts — Electron IPC and the browser-mode
 * WebSocket — serve exactly this contract. To add a request, see docs/ipc.md.
 */
import { z } from 'zod'
import { MAX_ENTRIES_PAGE, SESSION_WINDOW_ENTRIES } from './limits'
import { cleanName, MAX_NAME_CHARS, NAME_NEEDS_VISIBLE_TEXT } from './names'
import { TOOL_NAMES } from './tool-access'

// ---------------------------------------------------------------------------------------------------------------
// Limits shared by the schemas. A request that exceeds them is `invalid_input`, never a crash or a hang.

/** Longest file-system path accepted (Linux PATH_MAX). */
export const MAX_PATH_CHARS = 4096
/** Longest free-text field (a chat message, a focus, a file body edited in the app). */
export const MAX_TEXT_CHARS = 2_000_000

/**
 * Text that goes to the model as a message of its own (what the user sends, a compaction summary they edited): the
 * model service refuses a text block of only spaces and line breaks ("text content blocks must contain non-whitespace
 * text"), and once in the conversation such a message would fail every later pass too.
 */
const MessageText = z
  .string()
  .min(1)
  .max(MAX_TEXT_CHARS)
  .refine((text) => /\S/.test(text), 'a message needs some text: this one holds only spaces and line breaks, which the model service refuses')
/** The longest session title or project name (src-preload/names.ts, decision 0051). */
export { MAX_NAME_CHARS } from './names'
/** The most the prompt builder reads of one instruction or memory file, in UTF-8 bytes; the Files view saves no more. */
export { MAX_INSTRUCTION_FILE_BYTES } from './limits'
/** The summary text a compaction in flight keeps for a window that opens in its middle (its newest part). */
export const LIVE_SUMMARY_MAX_CHARS = 16_000

const Id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'ids are letters, digits, _ and -')
/** A file-system path: no operating system takes a NUL character in one, so it is refused here, before any handler. */
const Path = z.string().min(1).max(MAX_PATH_CHARS).regex(/^[^\0]*$/, 'a path cannot contain a NUL character')
const Empty = z.object({}).strict()
/**
 * A tool call's id (`toolu_…`), or an entry's: the Messages API takes tool_use ids of letters, digits, _ and -, and
 * the store makes entry ids of the same. Anything else names nothing, and would be echoed into an error the chat shows.
 */
const CallOrEntryId = z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'ids are letters, digits, _ and -')
/**
 * A model's id as the Messages API names one (`claude-sonnet-4-6`, a dated `claude-haiku-4-5-20251001`; Bedrock's
 * `anthropic.…-v1:0`, Vertex's `…@20250514`): letters, digits and `.`, `_`, `-`, `:`, `@`. Only the shape: whether the
 * app knows the model is the handler's to say, with the choices (decision 0054).
 */
const ModelId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@-]*$/, 'a model id is letters, digits, ., _, -, : and @ (as in claude-sonnet-4-6)')
/** A tool the agent has (src-preload/tool-access.ts): a rule for any other would match no call. */
const ToolNameInput = z.enum(TOOL_NAMES, { error: `the tool must be one of ${TOOL_NAMES.join(', ')}` })
/**
 * One folder of Claude Code's projects folder, by its name ("-home-me-app"): not a path, so `..` cannot reach the
 * folder around it.
 */
const ProjectFolderName = z
  .string()
  .min(1)
  .max(MAX_NAME_CHARS)
  .refine((name) => name !== '.' && name !== '..' && !/[/\\\u0000]/.test(name), 'a project is the name of one folder in the projects folder (no /, \\, NUL, . or ..)')

// ---------------------------------------------------------------------------------------------------------------
// Domain shapes

export const ProjectSchema = z.object({
  id: Id,
  name: z.string(),
  root: z.string(),
  createdAt: z.number(),
  lastOpenedAt: z.number(),
  /**
   * What the folder holds when it is not a working folder ("Claude Code's transcripts …", "the requests the capture
   * proxy recorded"): no session starts there and the Files view writes nothing there. Absent: a working folder.
   */
  notWorkingFolder: z.string().optional(),
  /**
   * The working folder is not on disk any more (deleted, renamed or moved since it was opened): no session starts
   * and no message is sent there; its sessions stay readable (decision 0022). Absent: the folder is there.
   */
  folderGone: z.literal(true).optional(),
})
export type Project = z.infer<typeof ProjectSchema>

export const SessionSchema = z.object({
  id: Id,
  projectId: Id,
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /**
   * Who ran it: `loupe` (the app), `transcript` (imported from a Claude Code transcript) or `captured` (another agent,
   * recorded by the capture proxy). Only `loupe` sessions take messages. Absent from older hosts: read as `loupe`.
   */
  origin: z.enum(['loupe', 'transcript', 'captured']).optional(),
  /**
   * A Loupe session that continues an imported conversation: its first `inherited` entries came from it (null:
   * unknown), whose last request used `fromModel` (null: unknown; absent from older hosts).
   */
  continued: z.object({ fromSessionId: z.string(), inherited: z.number().nullable(), fromModel: z.string().nullable().optional() }).optional(),
  /**
   * The session that started this one: an imported Claude Code session's subagent or compaction call is a session of
   * its own, listed under it. Absent for a top-level session and from older hosts.
   */
  parentSessionId: z.string().optional(),
  /**
   * An imported session whose file had lines that could not be read: how many, and how many for each reason
   * (`malformed_json`, `truncated_last_line` …). They are left out of the session. Absent when none were, and from
   * imports made before it was recorded.
   */
  skippedLines: z.object({ total: z.number().int().positive(), by: z.record(z.string(), z.number().int().nonnegative()) }).optional(),
})
export type Session = z.infer<typeof SessionSchema>

/**
 * A session as session.list gives it, with what it is doing in the main process now: a turn `running`, or `waiting`
 * for an approval (null: idle). A window opened while a turn runs has seen none of its events. Absent from older hosts.
 */
export const SessionListItemSchema = SessionSchema.extend({ activity: z.enum(['running', 'waiting']).nullable().optional() })

export const ModelEndpointSchema = z.object({
  kind: z.enum(['simulator', 'anthropic']),
  /** What the UI shows wherever the model is named: "Offline simulator" or the model id. */
  label: z.string(),
  model: z.string(),
})

export const AppInfoSchema = z.object({
  name: z.literal('Loupe'),
  version: z.string(),
  host: z.enum(['electron', 'browser']),
  dataDir: z.string(),
  /** Host features the UI may offer: the native folder and file dialogs exist only in Electron. */
  capabilities: z.object({ folderDialog: z.boolean(), fileDialog: z.boolean() }),
  model: ModelEndpointSchema,
})
export type AppInfo = z.infer<typeof AppInfoSchema>

/** An entry of a session (src-main/engine/conversation/entries.ts); its body depends on `kind`. */
export const EntrySchema = z.looseObject({ id: z.string(), sessionId: z.string(), seq: z.number(), at: z.number(), kind: z.string() })
export type EntryView = z.infer<typeof EntrySchema> & Record<string, unknown>

export const PermissionModeSchema = z.enum(['plan', 'build', 'auto'])
export type PermissionModeName = z.infer<typeof PermissionModeSchema>

export const UsageSchema = z.looseObject({
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_read_input_tokens: z.number(),
  cache_creation_input_tokens: z.number(),
})

export const AttemptSchema = z.looseObject({
  startedAt: z.number(),
  firstByteAt: z.number().nullable(),
  endedAt: z.number(),
  status: z.number().nullable(),
  requestId: z.string().nullable(),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
  /**
   * What the attempt was billed, on one the service answered with a 2xx (a stream that broke after its 200 too); the
   * pass's `costUsd` is the sum over its attempts. Absent on an attempt not billed, and on passes stored before.
   */
  usage: UsageSchema.optional(),
  costUsd: z.number().nullable().optional(),
})

export const PassSummarySchema = z.looseObject({
  id: z.string(),
  sessionId: z.string(),
  seq: z.number(),
  /** `keep_warm`: a cache pre-warm sent in an idle gap (max_tokens 0, docs/cache-attribution.md), not a conversation pass. */
  kind: z.enum(['main', 'summary', 'count', 'keep_warm']),
  model: z.string(),
  status: z.enum(['done', 'failed', 'cancelled']),
  queuedAt: z.number(),
  firstByteAt: z.number().nullable(),
  doneAt: z.number().nullable(),
  requestSha256: z.string(),
  requestBytes: z.number(),
  /** The last attempt's usage: the answer's. */
  usage: UsageSchema.nullable(),
  /** What the pass was billed, every attempt of it (a stream that broke after its 200 and was sent again included). */
  costUsd: z.number().nullable(),
  attempts: z.array(AttemptSchema),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
  attribution: z.unknown(),
  /**
   * `loupe` and `proxy` bodies are exact wire bytes; `transcript` is reconstructed from a Claude Code transcript
   * (conversation only, not wire bytes) and must be shown as such. Absent from older hosts: read it as `loupe`.
   */
  source: z.enum(['loupe', 'transcript', 'proxy']).optional(),
})
export type PassSummaryView = z.infer<typeof PassSummarySchema>

export const PassDetailSchema = PassSummarySchema.extend({
  requestBody: z.string(),
  responseRaw: z.string().nullable(),
  segments: z.array(z.looseObject({ ordinal: z.number(), path: z.string(), hash: z.string(), bytes: z.number(), provenance: z.unknown(), breakpoint: z.string().nullable() })),
  plan: z.unknown(),
  /** The pass's model drops earlier turns' thinking (§2.5): the inspector compares requests as its cache saw them. */
  stripsPriorThinking: z.boolean(),
})
export type PassDetailView = z.infer<typeof PassDetailSchema>

/** What an edit_file or write_file call would change (src-main/engine/tools/preview.ts), shown with its approval. */
export const ChangePreviewSchema = z.object({
  path: z.string(),
  created: z.boolean(),
  added: z.number(),
  removed: z.number(),
  hunks: z.array(
    z.object({
      oldStart: z.number(),
      newStart: z.number(),
      /** `skipped`: a long run of changed lines cut short; its text says how many more. */
      lines: z.array(z.object({ kind: z.enum(['context', 'added', 'removed', 'skipped']), text: z.string() })),
    }),
  ),
  omitted: z.number(),
  note: z.string().nullable(),
  refused: z.literal(true).optional(),
})
export type ChangePreviewView = z.infer<typeof ChangePreviewSchema>

export const ApprovalRequestSchema = z.looseObject({
  tool: z.string(),
  summary: z.string(),
  suggestedRules: z.array(z.object({ tool: z.enum(TOOL_NAMES), pattern: z.string() })),
  warning: z.string().nullable(),
  /** Absent from older hosts, and for calls that change no file. */
  preview: ChangePreviewSchema.optional(),
})
export type ApprovalRequestView = z.infer<typeof ApprovalRequestSchema>

/**
 * The main pass in flight in a session: its number in the turn, its model, when it started, and the stream events sent
 * so far (as `stream.delta` carries them, adjacent deltas merged). A window opening in the middle of a pass starts from
 * it, then follows `stream.delta`.
 */
export const LivePassSchema = z.object({
  passNumber: z.number(),
  model: z.string(),
  startedAt: z.number(),
  /** When its first stream event came; null before it. */
  firstDeltaAt: z.number().nullable(),
  events: z.array(z.looseObject({ type: z.string() })),
})
export type LivePassView = z.infer<typeof LivePassSchema>

export const SessionStateSchema = z.object({
  session: SessionSchema,
  project: ProjectSchema,
  /** The newest entries (decision 0039); earlier ones come from session.entries. */
  entries: z.array(EntrySchema),
  /** How many entries come before the first sent (positions 1 … earlier). Absent from older hosts, which sent all. */
  earlier: z.number().int().nonnegative().optional(),
  /** Entries before those sent that the cache timeline marks: checkpoints, context edits, model switches, files applied now. */
  landmarks: z.array(EntrySchema).optional(),
  /** Positions of entries the sent checkpoints name (a summarised range's ends) that were not sent. */
  seqs: z.record(z.string(), z.number()).optional(),
  mode: PermissionModeSchema,
  model: z.string(),
  running: z.boolean(),
  pendingApprovals: z.array(z.object({ toolUseId: z.string(), request: ApprovalRequestSchema })),
  /** The tool calls of the running turn that are running now (started, not finished). Absent from older hosts. */
  runningTools: z.array(z.string()).optional(),
  /** The pass streaming now, null between passes. Absent from older hosts. */
  livePass: LivePassSchema.nullable().optional(),
})
export type SessionStateView = z.infer<typeof SessionStateSchema>

// Compaction (docs/compaction.md)

export const CompactionStatusSchema = z.enum(['applied', 'draft', 'nothing_to_compact', 'refused', 'failed', 'cancelled', 'stale'])

/** A dry run's result: the summary and the new history, before they are applied or thrown away. */
export const CompactionDraftSchema = z.looseObject({
  draftId: z.string(),
  trigger: z.enum(['auto', 'manual', 'partial', 'tool']),
  focus: z.string().nullable(),
  stage: z.enum(['trim', 'summary']),
  summary: z.string().nullable(),
  form: z.string().nullable(),
  /** The new first message (text blocks), as the model would see it; null when only stage 1 ran. */
  head: z.array(z.looseObject({ type: z.literal('text'), text: z.string() })).nullable(),
  /** The entries kept whole after the head, in order. */
  keptEntryIds: z.array(z.string()),
  trimmed: z.array(z.looseObject({ entryId: z.string(), toolName: z.string(), chars: z.number(), keptChars: z.number() })),
  files: z.array(z.looseObject({ path: z.string(), tokens: z.number(), offered: z.enum(['content', 'path_only']) })),
  pins: z.array(z.looseObject({ pinId: z.string(), status: z.string() })),
  tokens: z.looseObject({
    before: z.object({ real: z.number().nullable(), estimated: z.number() }),
    after: z.object({ estimated: z.number() }),
    windowTokens: z.number(),
    targetTokens: z.number(),
  }),
  costUsd: z.number(),
  passIds: z.array(z.string()),
  notes: z.array(z.string()),
  /** The conversation moved on since the dry run: it can no longer be applied, only discarded (kept until then). */
  stale: z.boolean().optional(),
})

export const CompactionResultSchema = z.object({
  status: CompactionStatusSchema,
  compactionId: z.string(),
  /** Why nothing was applied (nothing to compact, refused, failed, cancelled, stale). */
  message: z.string().optional(),
  /** The checkpoint entry, when applied. */
  checkpoint: EntrySchema.optional(),
  draft: CompactionDraftSchema.optional(),
})

export const PinSchema = z.object({ pinId: z.string(), text: z.string(), sourceEntryId: z.string().nullable(), entryId: z.string() })

/** Cache-hit attribution (docs/cache-attribution.md): a session's totals against the best possible, and the what-ifs. */
const WhatIfSchema = z.object({ baselineUsd: z.number(), whatIfUsd: z.number(), deltaUsd: z.number(), note: z.string() })
export const CacheSummarySchema = z.object({
  sessionId: z.string(),
  /**
   * `requests`: attributed from the bytes each pass sent. `transcript`: an imported Claude Code session, from its
   * recorded usage only (no prediction, no what-ifs; causes as the transcript tells them). Absent from older hosts.
   */
  basis: z.enum(['requests', 'transcript']).optional(),
  totals: z.object({
    passes: z.number(),
    measured: z.number(),
    read: z.number(),
    write5m: z.number(),
    write1h: z.number(),
    uncached: z.number(),
    inputTotal: z.number(),
    cachedShare: z.number(),
    limitRead: z.number(),
    limitShare: z.number(),
    actualUsd: z.number().nullable(),
    bestUsd: z.number().nullable(),
    missTokens: z.number(),
    missUsd: z.number().nullable(),
  }),
  /** The keep-warm pre-warms sent in idle gaps: counted apart from the conversation's totals. Absent from older hosts. */
  keepWarm: z.object({ passes: z.number(), read: z.number(), write5m: z.number(), write1h: z.number(), uncached: z.number(), usd: z.number().nullable() }).optional(),
  byCause: z.array(z.object({ kind: z.string(), passes: z.number(), tokens: z.number(), usd: z.number().nullable() })),
  agreement: z.object({ compared: z.number(), agreed: z.number(), rate: z.number().nullable(), unexplained: z.number() }),
  diagnosticsDisagreements: z.number(),
  whatIfs: z.object({ staticTtl1h: WhatIfSchema, keepAlive: WhatIfSchema }),
  /** One line per pass for the cache timeline; the whole attribution is on `pass.get`. */
  passes: z.array(
    z.object({
      passId: z.string(),
      seq: z.number(),
      outcome: z.enum(['full', 'partial', 'miss']).nullable(),
      cause: z.string().nullable(),
      summary: z.string().nullable(),
      missTokens: z.number(),
      missUsd: z.number().nullable(),
    }),
  ),
})
export type CacheSummaryView = z.infer<typeof CacheSummarySchema>

export const ProposedEditSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.enum(['instruction_file', 'memory_file']),
      path: Path,
      applyNow: z.boolean(),
      charsBefore: z.number().int().min(0).optional(),
      charsAfter: z.number().int().min(0).optional(),
      /** The edited text: the next request is built with it and counted (count_tokens) instead of estimated. */
      text: z.string().max(MAX_TEXT_CHARS).optional(),
    })
    .strict(),
  z.object({ kind: z.literal('tools'), added: z.array(z.string().max(200)).max(100).optional(), removed: z.array(z.string().max(200)).max(100).optional() }).strict(),
  z.object({ kind: z.literal('model'), model: ModelId }).strict(),
])
export const EditPriceSchema = z.object({
  movedBlock: z.object({ path: z.string(), label: z.string() }).nullable(),
  rebilledTokens: z.number(),
  nextPassUsd: z.number().nullable(),
  withoutEditUsd: z.number().nullable(),
  deltaUsd: z.number().nullable(),
  cacheWarm: z.boolean(),
  /** Tokens the edit adds to what the next pass sends: the session block's change, or the deferred edit's note. */
  addedTokens: z.number(),
  /** Every token figure is a real count (count_tokens, a pass's usage); false for the chars / 4 estimate. */
  exact: z.boolean(),
  label: z.string(),
  /**
   * Applied now: the other files whose text in the session block differs when it is read again from disk, which go
   * out with the edit: changed on disk since it was read, or cut elsewhere by the instructions budget (the label says
   * which).
   */
  alsoApplied: z.array(z.string()).optional(),
  /** A model switch to a model whose minimum cacheable prompt exceeds this session's prompt: it caches none of it. */
  uncacheable: z.object({ model: z.string(), tokens: z.number(), minimum: z.number(), perPassUsd: z.number().nullable() }).optional(),
  /** A model switch back: the tokens of this prompt the other model still holds cached (an earlier pass on it). */
  cachedOnModel: z.number().optional(),
  /**
   * A model switch: the part of `deltaUsd` that is cache lost (re-billed tokens at the new model's write price over
   * its read price), which the pass after it shows as lost; the rest of `deltaUsd` is the two models' prices.
   */
  switchLostUsd: z.number().optional(),
  /**
   * A model switch whose re-billed tokens are under the new model's minimum (the tools and system alone, after a
   * checkpoint): that model could not read them however warm, so none of the $ is cache lost (`switchLostUsd` 0).
   */
  rebilledUnderMinimum: z.object({ minimum: z.number() }).optional(),
  /**
   * An edit above the conversation: the part of `deltaUsd` that is the re-billed tokens written instead of read, which
   * the pass after it shows as lost; the rest is the edit's own text.
   */
  rebilledUsd: z.number().optional(),
  /** Left for the next compaction: the session block it writes again with the edit then, in tokens and $ over a read. */
  atCompaction: z.object({ tokens: z.number(), usd: z.number().nullable() }).optional(),
  /**
   * A message taken back since the last pass: priced on the conversation without it. The Cache view measures the pass
   * after against the last pass's prefix, so it also counts as lost what the take-back cost.
   */
  historyChanged: z.literal(true).optional(),
})

// Files view (docs/inspector.md "Files"): instruction and memory files as the prompt builder resolved them.

export const FileNodeSchema = z.object({
  path: z.string(),
  absPath: z.string(),
  /** `nested`: an instruction file in a folder below the root, sent after the breakpoints when a file under it is read. */
  kind: z.enum(['instruction', 'rule', 'import', 'memory', 'nested']),
  tier: z.enum(['global', 'project', 'rule', 'local']).nullable(),
  /** `nested`: not in the session block; sent after the breakpoints, once per session (a nested file or its import). */
  status: z.enum(['included', 'cut', 'omitted', 'duplicate', 'empty', 'skipped', 'conditional', 'nested']),
  reason: z.string().nullable(),
  /** A skipped file's reason as a code (the prompt builder's SkipReason). Absent from older hosts. */
  skip: z.enum(['outside_allowed_roots', 'binary', 'too_large', 'not_a_file', 'unreadable']).optional(),
  /** For an `unreadable` file, why in the reader's words ("it is a symbolic link whose target does not exist …"). */
  skipDetail: z.string().optional(),
  chars: z.number().nullable(),
  tokens: z.number(),
  patterns: z.array(z.string()),
  importedBy: z.string().nullable(),
  editable: z.boolean(),
  get children(): z.ZodArray<typeof FileNodeSchema> {
    return z.array(FileNodeSchema)
  },
})
export type FileNodeView = z.infer<typeof FileNodeSchema>

/** system[1]'s tokens over its parts, as the inspector's context map gives them: each file its own estimate, the sections' own text the rest. */
const SessionBlockSharesSchema = z.object({ instructionFiles: z.number(), instructionHeadings: z.number(), memory: z.number(), memoryFiles: z.number(), skills: z.number() })

export const FilesListingSchema = z.object({
  root: z.string(),
  instructions: z.array(FileNodeSchema),
  memory: z.array(FileNodeSchema),
  creatable: z.array(z.object({ path: z.string(), kind: z.enum(['instructions', 'project_memory', 'user_memory', 'global_instructions']), label: z.string() })),
  notes: z.array(z.object({ path: z.string(), kind: z.string(), message: z.string() })),
  /** system[1], estimated (characters / 4): the inspector's context map gives the same figure for it. */
  sessionBlockTokens: z.number(),
  /** system[1] shared out as the inspector's context map shares it; absent from older hosts. */
  sessionBlock: SessionBlockSharesSchema.optional(),
  budgetChars: z.number(),
  usedChars: z.number(),
})
export type FilesListingView = z.infer<typeof FilesListingSchema>

/**
 * A session block sized as the listing sizes the one the files on disk make (its total, its parts, the characters its
 * instructions use): files.unapplied gives it for the block the session sends while an edit waits.
 */
export const SessionBlockFiguresSchema = z.object({ sessionBlockTokens: z.number(), sessionBlock: SessionBlockSharesSchema, usedChars: z.number() })
export type SessionBlockFiguresView = z.infer<typeof SessionBlockFiguresSchema>

/**
 * A file the session block would send otherwise, read again from disk, and how: `changed`, its text on disk is not
 * what the session read; `cut_shorter` or `cut_longer`, its text is as it was, and only where the instructions budget
 * cuts it moved (another file grew or shrank). files.unapplied lists them (src-main/engine/prompt/snapshot.ts
 * sessionFileChanges).
 */
export const UnappliedFileSchema = z.object({ path: z.string(), kind: z.enum(['changed', 'cut_shorter', 'cut_longer']) })
export type UnappliedFileView = z.infer<typeof UnappliedFileSchema>

/** `startingText`: for a file the listing offers to create that does not exist yet, the text the view's draft starts with. */
export const OpenedFileSchema = z.object({ path: z.string(), absPath: z.string(), text: z.string(), exists: z.boolean(), sha256: z.string().nullable(), startingText: z.string().optional() })
export type OpenedFileView = z.infer<typeof OpenedFileSchema>

export const SaveResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('saved'), path: z.string(), sha256: z.string(), backupPath: z.string().nullable(), charsBefore: z.number(), charsAfter: z.number() }),
  z.object({ status: z.literal('unchanged'), path: z.string(), sha256: z.string() }),
  z.object({ status: z.literal('conflict'), path: z.string(), disk: z.object({ text: z.string(), sha256: z.string().nullable(), exists: z.boolean() }), minePath: z.string() }),
])

// Settings (docs/inspector.md "Settings"). The API key is never sent back: only whether one is set, its source and
// a hint.

const ThemeSchema = z.enum(['light', 'dark', 'system'])
export const AppSettingsSchema = z.object({
  model: z.string().min(1).max(200).nullable(),
  staticCacheTtl1h: z.boolean(),
  defaultMode: PermissionModeSchema,
  /** One cache pre-warm in an idle gap, before the 5-minute entries expire (docs/decisions/0009-cache-keep-warm.md). */
  keepCacheWarm: z.boolean(),
  /** Adaptive thinking on the models that offer it (docs/decisions/0010-thinking.md). */
  thinking: z.boolean(),
  theme: ThemeSchema,
})
export const ProjectCompactionSchema = z.object({
  auto: z.boolean(),
  threshold: z.number().gt(0).lt(1),
  target: z.number().gt(0).lt(1),
  keepSteps: z.number().int().min(1).max(100),
})
export const KeyStatusSchema = z.object({ configured: z.boolean(), source: z.enum(['env', 'store']).nullable(), hint: z.string().nullable(), restartNeeded: z.boolean() })
export const SettingsViewSchema = z.object({
  app: AppSettingsSchema,
  problems: z.array(z.string()),
  apiKey: KeyStatusSchema,
  models: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      contextWindow: z.number(),
      maxOutputTokens: z.number(),
      minCacheableTokens: z.number(),
      prices: z.object({ input: z.number(), output: z.number(), cacheWrite5m: z.number(), cacheWrite1h: z.number(), cacheRead: z.number() }),
      pricesEstimated: z.boolean(),
      /** The day (YYYY-MM-DD, UTC) the API stops serving the model; null when none is announced (decision 0065). */
      endOfLife: z.string().nullable(),
    }),
  ),
  effectiveModel: z.string(),
  /** Why new sessions do not start on the model chosen for them: it was retired since (decision 0065); else null. */
  chosenModelRetired: z.string().nullable(),
  /** What answers now (it follows the key: the API with one, the simulator without), and its address. */
  endpoint: z.object({ kind: z.enum(['simulator', 'anthropic']), label: z.string(), baseUrl: z.string().nullable() }),
  dataDir: z.string(),
  loupeHome: z.string(),
  project: ProjectCompactionSchema.extend({ projectId: z.string(), configPath: z.string(), problems: z.array(z.string()) }).nullable(),
})
export type SettingsViewData = z.infer<typeof SettingsViewSchema>

const PermissionRuleInput = z.object({ tool: ToolNameInput, pattern: z.string().min(1).max(1000) }).strict()
/** The "always allow" rules a session holds (granted from approvals); one stored for a tool this build lacks is not kept (decision 0054). */
export const AllowRulesSchema = z.object({ allow: z.array(z.object({ tool: z.enum(TOOL_NAMES), pattern: z.string() })) })

// Claude Code transcripts (docs/claude-code-import.md) and the capture proxy (docs/proxy.md).

export const TranscriptFileSchema = z.object({
  path: z.string(),
  sessionId: z.string(),
  sizeBytes: z.number(),
  modifiedMs: z.number(),
  firstAtMs: z.number().nullable(),
  lastAtMs: z.number().nullable(),
  models: z.array(z.string()),
  /** Distinct API requests in the session file (subagent files not included); null when it could not be read. */
  requests: z.number().nullable(),
  subagentFiles: z.number(),
  title: z.string().nullable(),
  skippedLines: z.number(),
  /**
   * The skipped lines by why (the parser's codes: malformed_json, truncated_last_line, too_long, not_an_object,
   * unknown_type, missing_message, invalid_field). Absent from older hosts.
   */
  skippedBy: z.record(z.string(), z.number()).optional(),
  /** Why it cannot be imported ("it is empty", "it could not be read" …); null when it can. Absent from older hosts. */
  unimportable: z.string().nullable().optional(),
  /** The Loupe session it was imported as; `changed` when the file grew since. */
  imported: z.object({ sessionId: z.string(), projectId: z.string(), changed: z.boolean() }).nullable(),
})
export type TranscriptFileView = z.infer<typeof TranscriptFileSchema>

export const TranscriptListingSchema = z.object({
  projectsDir: z.string(),
  projects: z.array(z.object({ project: z.string(), cwd: z.string().nullable(), sessions: z.array(TranscriptFileSchema) })),
  /** Entries not listed: symlinks leading out of the folder, unreadable entries. */
  skippedEntries: z.number(),
})

const TranscriptUsageSchema = z.object({
  passes: z.number(),
  uncached: z.number(),
  read: z.number(),
  write: z.number(),
  output: z.number(),
  /** Null when no pass's model has a known price. */
  costUsd: z.number().nullable(),
  cachedShare: z.number(),
})

export const TranscriptTotalsSchema = TranscriptUsageSchema.extend({
  sessionId: z.string(),
  title: z.string(),
  hits: z.number(),
  misses: z.record(z.string(), z.number()),
  compactions: z.array(z.object({ trigger: z.string(), preTokens: z.number().nullable(), tokensAfter: z.number().nullable(), summaryChars: z.number().nullable(), costUsd: z.number() })),
  children: z.array(TranscriptUsageSchema.extend({ sessionId: z.string(), title: z.string(), kind: z.string() })),
  includingChildren: TranscriptUsageSchema,
})
export type TranscriptTotalsView = z.infer<typeof TranscriptTotalsSchema>

export const TranscriptImportSchema = z.object({
  status: z.enum(['imported', 'unchanged', 'replaced']),
  sessionId: z.string(),
  projectId: z.string(),
  title: z.string(),
  skippedLines: z.number(),
  totals: TranscriptTotalsSchema,
  /** The earlier import of a grown file, deleted by this one (`replaced`); absent from older hosts. */
  replaced: z.object({ sessionId: z.string(), projectId: z.string() }).optional(),
})

export const ProxyStatusSchema = z.object({
  running: z.boolean(),
  /** What to set as ANTHROPIC_BASE_URL in the agent to record: `http://127.0.0.1:PORT`. */
  url: z.string().nullable(),
  upstream: z.string().nullable(),
  upstreamKind: z.enum(['simulator', 'anthropic', 'custom']).nullable(),
  startedAt: z.number().nullable(),
  projectId: z.string().nullable(),
  requests: z.number(),
  /** Of `requests`, those that failed (an error status, an upstream that could not be reached, a broken stream). */
  failed: z.number(),
  /** The newest failure in words ("HTTP 401 · authentication_error: invalid x-api-key") and when it ended. */
  lastError: z.object({ at: z.number(), message: z.string() }).nullable(),
  sessions: z.array(z.object({ sessionId: z.string(), client: z.string(), passes: z.number(), failed: z.number() })),
})
export type ProxyStatusView = z.infer<typeof ProxyStatusSchema>

// ---------------------------------------------------------------------------------------------------------------
// Requests

function request<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, doc: string) {
  return { input, output, doc } as const
}

/** What an API key must be, as the host checks it (printable, no spaces, 20 to 400 characters once trimmed). */
export const API_KEY_RULE = 'An API key is 20 to 400 printable characters without spaces (Anthropic keys start with sk-ant-).'
/** The longest `settings.setApiKey` input the contract takes; the renderer answers a longer paste with API_KEY_RULE. */
export const API_KEY_MAX_INPUT = 1000

export const requests = {
  'app.info': request(Empty, AppInfoSchema, 'What this app is, which host serves it, and which model answers.'),
  'app.ping': request(Empty, z.object({ at: z.number() }), 'A no-op round trip (used by the benchmark).'),

  'project.open': request(
    z.object({ path: Path }).strict(),
    ProjectSchema,
    'Opens a folder as a project (or reopens it if known). The folder must exist and be readable.',
  ),
  'project.list': request(Empty, z.array(ProjectSchema), 'Known projects, most recently opened first (not those removed from the list).'),
  'project.remove': request(
    z.object({ projectId: Id }).strict(),
    z.object({ removed: z.boolean() }),
    "Takes a project out of the list. Nothing is deleted: the folder, the project's sessions and their passes stay in the store, and opening the folder again lists it again with them. `busy` while a turn runs in one of its sessions.",
  ),
  'project.pickFolder': request(
    Empty,
    z.object({ path: z.string().nullable() }),
    'Shows the native folder dialog (Electron host only; the browser host answers `unsupported`).',
  ),

  'session.create': request(
    z.object({ projectId: Id, title: z.string().max(MAX_NAME_CHARS).optional() }).strict(),
    SessionSchema,
    'Starts a new session in a project. Its name is kept as a rename keeps it; without one, or with one that has no character that shows, the session is named by the time it was made.',
  ),
  'session.list': request(
    z.object({ projectId: Id }).strict(),
    z.array(SessionListItemSchema),
    "A project's sessions, newest first, each with what it is doing now (a turn running, an approval waiting).",
  ),
  'session.rename': request(
    z.object({ sessionId: Id, title: z.string().max(MAX_NAME_CHARS).refine((title) => cleanName(title) !== '', NAME_NEEDS_VISIBLE_TEXT) }).strict(),
    SessionSchema,
    'Renames a session. The name is kept as every name is (src-preload/names.ts, decision 0051): on one line, without control, direction-override or invisible characters, spaces collapsed; the answer holds the name as kept. A name with no character that shows is `invalid_input`, and the session keeps its name.',
  ),
  'session.delete': request(
    z.object({ sessionId: Id }).strict(),
    z.object({ deleted: z.boolean(), blobsCollected: z.number() }),
    'Deletes a session with its entries and passes, and the stored texts nothing else uses.',
  ),
  'session.export': request(
    z.object({ sessionId: Id, path: Path.optional() }).strict(),
    z.object({ path: z.string(), bytes: z.number(), replaced: z.boolean() }),
    "Writes the session (entries, passes, blobs) as one JSON file; by default into the data folder's exports/, where it replaces the session's earlier export (`replaced`). A file anywhere else is never replaced. The path is checked before the session is serialized: `invalid_input` for a path the file system cannot take or a place an export may not go, `io_error` (with its cause) for a folder that cannot take the file.",
  ),
  'session.pickFile': request(
    z.object({ purpose: z.enum(['export', 'import']), defaultPath: Path.optional() }).strict(),
    z.object({ path: z.string().nullable() }),
    'Shows the native file dialog: where to save an export (`export`, starting at `defaultPath`) or which export to import (`import`). `path` is null when the user cancels. Electron host only; the browser host answers `unsupported`.',
  ),
  'session.import': request(
    z.object({ projectId: Id, path: Path }).strict(),
    SessionSchema.extend({ alreadyPresent: z.boolean().optional() }),
    'Imports a session exported by session.export into a project. An export keeps its ids, so it imports once: a session already in the store is answered as it is, with `alreadyPresent` (in its own project, unchanged; no event). A file any row of which would not read back is refused whole, `invalid_input` naming what is wrong; the session comes in with a new session\'s permission mode and rules (decision 0033).',
  ),
  'session.get': request(
    z.object({ sessionId: Id }).strict(),
    SessionStateSchema,
    `A session with its newest ${SESSION_WINDOW_ENTRIES} entries (earlier ones: session.entries), permission mode, model, and whether a turn is running.`,
  ),
  'session.entries': request(
    z.object({ sessionId: Id, beforeSeq: z.number().int().min(1), limit: z.number().int().min(1).max(MAX_ENTRIES_PAGE).optional(), fromEntryId: Id.optional(), throughPassId: Id.optional() }).strict(),
    z.object({ entries: z.array(EntrySchema), earlier: z.number().int().nonnegative(), seqs: z.record(z.string(), z.number()) }),
    `A session's entries before position \`beforeSeq\`, in order: the \`limit\` nearest it (${SESSION_WINDOW_ENTRIES} by default), or with \`fromEntryId\` every one from that entry on, or with \`throughPassId\` every one from a few before that pass's answer on (at most ${MAX_ENTRIES_PAGE}). \`earlier\`: how many come before the first sent; \`seqs\`: positions of entries the sent checkpoints name that were not sent.`,
  ),
  'session.setMode': request(
    z.object({ sessionId: Id, mode: PermissionModeSchema }).strict(),
    z.object({ mode: PermissionModeSchema }),
    'Switches the permission mode (plan, build, auto); recorded as an entry.',
  ),
  'session.setModel': request(
    z.object({ sessionId: Id, model: ModelId }).strict(),
    z.object({ model: z.string() }),
    "Switches the model the session's next passes use: one of settings.get's models, or a dated id of one (`claude-haiku-4-5-20251001`); any other, or one past its `endOfLife` (decision 0065), is `invalid_input` naming the choices (decision 0054). Recorded as an entry. The cache is per model, so the next pass writes its whole prompt afresh: cache.priceEdit with `{kind: 'model'}` prices that first. `busy` while a turn runs.",
  ),
  'session.rules': request(z.object({ sessionId: Id }).strict(), AllowRulesSchema, 'The "always allow" rules granted in a session, oldest first.'),
  'session.revokeRule': request(
    z.object({ sessionId: Id, rule: PermissionRuleInput }).strict(),
    AllowRulesSchema,
    'Removes an "always allow" rule: later calls it matched are asked about again. Recorded as a note in the conversation.',
  ),

  'run.start': request(
    z.object({ sessionId: Id, text: MessageText }).strict(),
    z.object({ runId: z.string() }),
    "Sends the user's message and runs the agent's turn in the background; progress arrives as events.",
  ),
  'run.retry': request(
    z.object({ sessionId: Id }).strict(),
    z.object({ runId: z.string() }),
    'Runs the turn again after a model error, from the entries as they are.',
  ),
  'run.takeBack': request(
    z.object({ sessionId: Id, entryId: Id }).strict(),
    z.object({ text: z.string(), dropped: z.number(), messages: z.number() }),
    "Takes a message the user sent back (decision 0024): it and everything after it that the model sees (the answers to it; for an earlier message, the later messages and their answers too) leave what the model sees (a `context_edit` entry from `take-back`; nothing is deleted, and what the tools did is not undone). Answers with the message's text, to be changed and sent again, how many entries the model no longer sees, and how many of the user's messages went back. `busy` while a turn runs; `unsupported` for a message already taken back, one a compaction has since folded in, or one a continued session carried over from Claude Code's conversation.",
  ),
  'run.cancel': request(
    z.object({ sessionId: Id }).strict(),
    z.object({ cancelled: z.boolean() }),
    'Stops the running turn (Esc). The session stays valid: partial text is kept, open tool calls are closed.',
  ),
  'approval.answer': request(
    z
      .object({
        sessionId: Id,
        toolUseId: CallOrEntryId,
        answer: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('once') }).strict(),
          z.object({ kind: z.literal('always'), rules: z.array(PermissionRuleInput).max(10).optional() }).strict(),
          z.object({ kind: z.literal('deny'), reason: z.string().max(2000).optional() }).strict(),
        ]),
      })
      .strict(),
    z.object({ accepted: z.boolean() }),
    'Answers a pending approval: once, always for a pattern, or deny with a reason.',
  ),

  'pass.list': request(z.object({ sessionId: Id }).strict(), z.array(PassSummarySchema), "A session's passes, oldest first, as a list shows them: each attribution without its cache facts, each attempt without its response headers (pass.get has both)."),
  'pass.live': request(
    z.object({ sessionId: Id }).strict(),
    LivePassSchema.nullable(),
    "The session's pass in flight with what it streamed so far, for a window that opens in its middle; null between passes.",
  ),
  'pass.get': request(
    z.object({ passId: Id }).strict(),
    PassDetailSchema,
    'One pass with its exact request bytes (re-assembled from the store), segments and raw response.',
  ),
  'session.cacheSummary': request(
    z.object({ sessionId: Id }).strict(),
    CacheSummarySchema,
    "A session's cache figures: read / written / paid in full, the cached share against the best possible, misses by cause, prediction agreement, and the 1h-TTL and keep-alive what-ifs.",
  ),
  'cache.priceEdit': request(
    z.object({ sessionId: Id, edit: ProposedEditSchema }).strict(),
    EditPriceSchema.nullable(),
    'Prices a proposed change (an instruction or memory file applied now or later, a tool set change, a model switch) before it happens: which block moves, the tokens the next pass re-bills, the $. Null before the first pass. A switch is priced to a model session.setModel would switch to, and to no other (`invalid_input` naming the choices): not to an unknown or retired one.',
  ),
  'compaction.run': request(
    z
      .object({
        sessionId: Id,
        focus: z.string().max(4000).optional(),
        /** Summarise only up to this entry (an entry id) or tool call (a toolu_ id), keep the rest whole. */
        upto: CallOrEntryId.optional(),
        instructions: z.string().max(20_000).optional(),
        dryRun: z.boolean().optional(),
      })
      .strict(),
    CompactionResultSchema.extend({ runId: z.string() }),
    'Compacts now (stage 1 then stage 2, whatever the size), as the session\'s run; answers when done. With dryRun, returns a draft to read, edit and apply or discard.',
  ),
  'compaction.apply': request(
    z.object({ sessionId: Id, draftId: Id, summary: MessageText.optional() }).strict(),
    CompactionResultSchema,
    'Applies a dry run\'s draft, with the summary text as the user edited it. `stale` when the conversation moved on: the draft stays, marked `stale` in compaction.list, until discarded.',
  ),
  'compaction.discard': request(
    z.object({ sessionId: Id, draftId: Id }).strict(),
    z.object({ discarded: z.boolean() }),
    'Throws a dry run\'s draft away; the session is unchanged.',
  ),
  'compaction.cancel': request(
    z.object({ sessionId: Id }).strict(),
    z.object({ cancelled: z.boolean() }),
    'Stops the compaction in flight, and only it: a turn it runs in goes on to its pass uncompacted. The conversation stays exactly as it was; the summary pass is kept with its cost. `cancelled` is false when no compaction runs.',
  ),
  'compaction.list': request(
    z.object({ sessionId: Id }).strict(),
    z.object({
      checkpoints: z.array(
        z.object({
          checkpoint: EntrySchema,
          /** Context tokens of the first pass after the checkpoint (the real "after"); null until it ran. */
          realTokensAfter: z.number().nullable(),
          /**
           * The context before and after, on one basis: what the next pass sends, at the checkpoint. Before: the last
           * pass's input and answer plus what came since (the figure the threshold reads). After: the first pass
           * after, measured, less what came after the checkpoint (`addedSince`, estimated); until it runs, the
           * checkpoint's estimate on the real count's scale. `passSeq`: the pass measured, when one was.
           */
          context: z.object({
            before: z.object({ tokens: z.number(), measured: z.boolean(), passSeq: z.number().nullable() }),
            after: z.object({ tokens: z.number(), measured: z.boolean(), passSeq: z.number().nullable(), addedSince: z.number() }),
          }),
          passes: z.array(PassSummarySchema),
        }),
      ),
      drafts: z.array(CompactionDraftSchema),
      /** The compaction in flight, with the summary text streamed so far (its newest LIVE_SUMMARY_MAX_CHARS); null when none. */
      live: z
        .object({
          compactionId: z.string(),
          trigger: z.enum(['auto', 'manual', 'partial', 'tool']),
          focus: z.string().nullable(),
          dryRun: z.boolean(),
          startedAt: z.number(),
          /** started | trimmed | summary_started | summary_streaming | summary_finished | extension_failed */
          stage: z.string(),
          /** Characters of summary so far, and the tokens estimated from them (ceil(chars / 4)). */
          outputChars: z.number(),
          outputTokens: z.number(),
          /** Characters of thinking the model wrote before the summary (a thinking model), in the current stream. */
          thinkingChars: z.number(),
          /** Stage 1: tool results trimmed and the tokens that saved, once known. */
          trimmed: z.number().nullable(),
          savedTokens: z.number().nullable(),
          /** The summary as it forms, composed from the progress pieces (src-preload/summary-stream.ts). */
          stream: z.number(),
          text: z.string().max(LIVE_SUMMARY_MAX_CHARS),
          textEnd: z.number(),
          textHidden: z.number(),
        })
        .nullable(),
    }),
    "A session's checkpoints, oldest first, with their summary passes and the real size after; and the drafts waiting.",
  ),
  'pin.add': request(
    z.object({ sessionId: Id, text: z.string().min(1).max(8000).optional(), entryId: Id.optional() }).strict(),
    PinSchema,
    'Pins a sentence or an entry: after every compaction the app checks it survived, re-injects it, or flags it.',
  ),
  'pin.remove': request(z.object({ sessionId: Id, pinId: Id }).strict(), z.object({ removed: z.boolean() }), 'Unpins.'),
  'pin.list': request(z.object({ sessionId: Id }).strict(), z.array(PinSchema), 'The pins in effect.'),
  'transcripts.list': request(
    z.object({ folder: Path.optional() }).strict(),
    TranscriptListingSchema,
    'Claude Code sessions under the projects folder (default ~/.claude/projects), by project, newest first: date, size, models, request count, and whether each is imported.',
  ),
  'transcripts.import': request(
    z.object({ path: Path, folder: Path.optional(), projectId: Id.optional() }).strict(),
    TranscriptImportSchema,
    'Imports one session file (it must lie inside the projects folder) as a session of reconstructed passes, with its compactions as checkpoints and its subagents as linked child sessions. An unchanged file is not imported twice.',
  ),
  'transcripts.importAll': request(
    z.object({ folder: Path.optional(), project: ProjectFolderName.optional() }).strict(),
    z.object({
      results: z.array(TranscriptImportSchema),
      failed: z.array(z.object({ path: z.string(), message: z.string() })),
      /** Files left out because they hold no conversation (empty, or not a transcript): the listing says so already. */
      skipped: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
    'Imports every session of the projects folder (or of one of its projects); files that hold no conversation are skipped.',
  ),
  'transcripts.totals': request(
    z.object({ sessionId: Id }).strict(),
    TranscriptTotalsSchema,
    "An imported session's totals from the store: read / write / uncached input, $, cached share, misses by cause, compactions with their before/after, and its child sessions.",
  ),
  'transcripts.continue': request(
    z.object({ sessionId: Id, projectId: Id.optional() }).strict(),
    SessionSchema,
    'Starts a Loupe session whose history is the imported conversation (its last summary and what followed), to go on from there.',
  ),
  'proxy.start': request(
    z.object({ port: z.number().int().min(0).max(65535).optional(), upstream: z.string().url().max(2000).optional() }).strict(),
    ProxyStatusSchema,
    "Starts the capture proxy on 127.0.0.1 (port 0 picks one). Upstream: the app's model service by default; an explicit URL must be the Anthropic API or a loopback address.",
  ),
  'proxy.stop': request(Empty, ProxyStatusSchema, 'Stops the capture proxy; requests in flight are finished and recorded.'),
  'proxy.status': request(Empty, ProxyStatusSchema, 'Whether the capture proxy runs, where, and what it has recorded.'),
  'files.list': request(
    z.object({ projectId: Id }).strict(),
    FilesListingSchema,
    "The project's instruction and memory files as the prompt builder resolves them now: included, cut, omitted, skipped and why, imports and `paths:` rules as a tree, and the files it could create.",
  ),
  'files.read': request(
    z.object({ projectId: Id, path: Path }).strict(),
    OpenedFileSchema,
    'Opens one listed file for editing, with the sha256 a save must name. Files over 1 MB, binary files and invalid UTF-8 are refused (`unsupported`).',
  ),
  'files.save': request(
    z.object({ projectId: Id, path: Path, text: z.string().max(MAX_TEXT_CHARS), baseSha256: z.string().regex(/^[0-9a-f]{64}$/).nullable() }).strict(),
    SaveResultSchema,
    'Saves atomically and keeps a backup of the replaced version. If the file changed on disk since `baseSha256`, nothing is written: the answer is `conflict` with the disk text, and the text sent is kept in the data folder.',
  ),
  'files.apply': request(
    z.object({ sessionId: Id, paths: z.array(Path).min(1).max(50) }).strict(),
    z.object({ applied: z.boolean(), entryId: z.string().nullable(), message: z.string() }),
    "Applies edited instruction or memory files to the session now: the session block is frozen again from disk, so the next pass re-bills it (priced by cache.priceEdit). Without it an edit waits for the next compaction. `busy` while a turn runs.",
  ),
  'files.unapplied': request(
    z.object({ sessionId: Id }).strict(),
    z.object({ paths: z.array(z.string()), changes: z.array(UnappliedFileSchema).optional(), sent: SessionBlockFiguresSchema.optional() }),
    "The session's instruction and memory files whose text on disk its session block does not hold yet (an edit saved for the next compaction or while a turn ran, a change made outside Loupe), and those the block would send cut otherwise by the instructions budget because another of them changed: what files.apply would send now. Empty before the first pass. With any listed, `changes`: the same files in the same order, each with how it differs (absent from older hosts: read every file as `changed`), and `sent`: the session block the session sends meanwhile, sized as files.list sizes the one the files on disk make. `unsupported` for an imported or captured session.",
  ),
  'settings.get': request(
    z.object({ projectId: Id.optional() }).strict(),
    SettingsViewSchema,
    "The app's settings, the project's compaction settings, the model table with windows and prices, the API key's status (a hint, never the key), and the folders in use.",
  ),
  'settings.set': request(
    z
      .object({
        app: AppSettingsSchema.extend({ model: ModelId.nullable() }).partial().strict().optional(),
        project: z.object({ projectId: Id, compaction: ProjectCompactionSchema.strict() }).strict().optional(),
      })
      .strict(),
    SettingsViewSchema,
    "Changes app settings (saved in the data folder) and a project's compaction settings (saved in its .loupe/config.toml, which the next pass reads).",
  ),
  'settings.setApiKey': request(
    z.object({ key: z.string().min(1).max(API_KEY_MAX_INPUT).nullable() }).strict(),
    KeyStatusSchema,
    "Stores the Anthropic API key in the host's secret storage (null forgets it). The answer is the key's status and last four characters; the key is never sent back. Takes effect at the next pass: the API with the new key, or the offline simulator when none is left (`endpoint.changed` when that switches what answers).",
  ),
} as const

export type Requests = typeof requests
export type RequestName = keyof Requests
export type RequestInput<N extends RequestName> = z.input<Requests[N]['input']>
export type RequestOutput<N extends RequestName> = z.output<Requests[N]['output']>

export const requestNames = Object.keys(requests) as RequestName[]
export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name)
}

// ---------------------------------------------------------------------------------------------------------------
// Events (main → renderer), named in the past tense.

export const events = {
  'app.ready': z.object({ at: z.number(), host: z.enum(['electron', 'browser']) }),
  'project.opened': ProjectSchema,
  /** A project was taken out of the list (project.remove), in any window. */
  'project.removed': z.object({ projectId: z.string() }),
  'session.created': SessionSchema,
  /** A session's new name, for every window (the one that renamed it has the answer too). */
  'session.renamed': SessionSchema,
  /**
   * `replacedBy`: the session that takes its place (a grown Claude Code file imported again): a window showing the one
   * deleted, or a session it started, shows that one instead. Absent for a delete, and from older hosts.
   */
  'session.deleted': z.object({ sessionId: z.string(), projectId: z.string(), replacedBy: z.string().optional() }),
  'run.started': z.object({ sessionId: z.string(), runId: z.string() }),
  /** Stream deltas of the pass in flight, coalesced (about every 30 ms). */
  'stream.delta': z.object({ sessionId: z.string(), events: z.array(z.looseObject({ type: z.string() })) }),
  'pass.started': z.object({ sessionId: z.string(), passNumber: z.number(), model: z.string() }),
  'pass.completed': z.object({ sessionId: z.string(), pass: PassSummarySchema }),
  /** `seqs`: positions of the entries that checkpoints among them name, not among them (a summarised range's ends). */
  'entries.appended': z.object({ sessionId: z.string(), entries: z.array(EntrySchema), seqs: z.record(z.string(), z.number()).optional() }),
  'tool.started': z.object({ sessionId: z.string(), toolUseId: z.string(), name: z.string(), input: z.unknown() }),
  'tool.finished': z.object({ sessionId: z.string(), toolUseId: z.string(), name: z.string(), isError: z.boolean() }),
  'approval.requested': z.object({ sessionId: z.string(), toolUseId: z.string(), request: ApprovalRequestSchema }),
  /** An instruction or memory file was saved or created through the Files view: every window's listing reads it again. */
  'files.changed': z.object({ projectId: z.string(), path: z.string() }),
  /** The capture proxy was started or stopped (from any window): every panel reads its status again. */
  'proxy.changed': z.object({ running: z.boolean() }),
  /** Settings were saved (the app's, or one project's compaction settings when `projectId` is set). */
  'settings.changed': z.object({ projectId: z.string().nullable() }),
  /** An approval was answered (in any window): every window drops its card. */
  'approval.answered': z.object({ sessionId: z.string(), toolUseId: z.string() }),
  /** `unrecorded`: why the turn failed, when the store refused to keep it (it is in no entry, so it is said here). */
  'turn.ended': z.object({ sessionId: z.string(), runId: z.string(), reason: z.string(), unrecorded: z.string().optional() }),
  /** What answers the next pass changed (an API key set or removed in Settings): the simulator or the API. */
  'endpoint.changed': ModelEndpointSchema,
  'compaction.started': z.object({ sessionId: z.string(), compactionId: z.string(), trigger: z.enum(['auto', 'manual', 'partial', 'tool']), focus: z.string().nullable(), dryRun: z.boolean() }),
  /**
   * stage: trimmed | summary_started | summary_streaming | summary_finished | extension_failed, with its figures.
   * summary_streaming carries the summary as it forms, at most one every 100 ms: `text` is what arrived since the
   * previous one (its last 2,000 characters when more did), starting at `textOffset` of the stream's text; a new
   * `stream` number (a retried attempt, a second summary request) starts the text again at 0.
   */
  'compaction.progressed': z.looseObject({
    sessionId: z.string(),
    compactionId: z.string(),
    stage: z.string(),
    stream: z.number().optional(),
    outputChars: z.number().optional(),
    outputTokens: z.number().optional(),
    text: z.string().max(2000).optional(),
    textOffset: z.number().optional(),
    /** Characters of thinking so far in this stream: the model thinks before it writes (not shown, counted). */
    thinkingChars: z.number().optional(),
  }),
  'compaction.drafted': z.object({ sessionId: z.string(), compactionId: z.string(), draft: CompactionDraftSchema }),
  'compaction.applied': z.object({ sessionId: z.string(), compactionId: z.string(), checkpoint: EntrySchema, pins: z.array(z.object({ pinId: z.string(), status: z.string() })) }),
  'compaction.failed': z.object({ sessionId: z.string(), compactionId: z.string(), reason: z.enum(['failed', 'cancelled', 'refused', 'nothing_to_compact', 'stale']), message: z.string() }),
} as const

export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<N extends EventName> = z.output<Events[N]>

// ---------------------------------------------------------------------------------------------------------------
// The Result envelope

export const errorCodes = [
  'invalid_input', // the payload does not match the request's schema
  'unknown_request', // no such request name
  'not_found', // a referenced project, session, pass or file does not exist
  'not_a_directory',
  'permission_denied',
  'unsupported', // the host cannot do this (e.g. a native dialog in browser mode)
  'conflict', // the state changed under the request (e.g. a run already in progress)
  'busy', // the session is running a turn; wait for it or cancel it
  'io_error',
  'store_lost', // the store's file was deleted or replaced while the app ran: nothing can be saved until a restart
  'internal', // a bug: the message says what failed, the log has the stack
] as const
export type ErrorCode = (typeof errorCodes)[number]

export interface ContractError {
  readonly code: ErrorCode
  readonly message: string
}
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ContractError }

/** The WebSocket framing (browser mode). Electron IPC carries the same `name`/`input` and `Result`. */
export type ClientFrame = { readonly kind: 'request'; readonly id: number; readonly name: string; readonly input: unknown }
export type ServerFrame =
  | { readonly kind: 'response'; readonly id: number; readonly result: Result<unknown> }
  | { readonly kind: 'event'; readonly name: EventName; readonly payload: unknown }

/** The Electron IPC channel names. Only the preload and src-main/electron use them. */
export const IPC_REQUEST_CHANNEL = 'loupe:request'
export const IPC_EVENT_CHANNEL = 'loupe:event'
