/**
 * The prompt builder's public API (docs/context-engine.md). Pure: values in, a plan and a request body out.
 */
export { buildPromptPlan } from './builder'
export { PROBE_MESSAGE, sessionBlockText } from './session-block'
export { renderRequest } from './render'
export { validatePlan, MAX_BREAKPOINTS } from './validate'
export { PlanError } from './errors'
export type { PlanErrorCode } from './errors'

export type { PromptInput, PromptSettings, HistoryMessage, HistoryProvenance, HistoryKind } from './input'
export type {
  PromptPlan,
  PlannedTool,
  PlannedSystemBlock,
  PlannedMessage,
  PlannedBlockInfo,
  BlockProvenance,
  BlockStability,
  BreakpointTag,
  BreakpointPlacement,
  SectionFingerprint,
  SectionSpan,
} from './plan'
export { SECTIONS, SECTION_SEPARATOR } from './sections'
export type { Stability, Placement, SectionSpec, ExtraSection, BuiltInSection } from './sections'

export type {
  GatheredContext,
  GatheredFile,
  GatheredInstruction,
  GatheredSkill,
  GatherNote,
  GatherNoteReason,
  FileRead,
  ImportLink,
  InstructionTier,
  SkipReason,
  SessionFacts,
  BuildFacts,
  RootEntry,
  GitFacts,
} from './gathered'
export { MAX_INSTRUCTION_FILE_BYTES } from './gathered'

export { freezeSession, changedSessionFiles, fileEditTimes, sessionFileChanges, sessionChangeWords, freezeSessionSection, projectStatics, resolveInstructions, INSTRUCTIONS_HEADER } from './snapshot'
export type { FrozenSession, SessionSection, SessionFileChange, FileEditTime, ProjectStatics, SnapshotOrigin, FreezeOptions, ResolvedInstructions } from './snapshot'
export { freezeSessionContext, renderSessionContext, LISTING_CAP } from './session-context'
export type { FrozenSessionContext } from './session-context'
export { INSTRUCTIONS_BUDGET_CHARS } from './budget'
export type { RenderedPart, Allocation } from './budget'
export { MAX_IMPORT_DEPTH } from './instructions'
export type { InstructionEntry, PathRule, ResolveNote, ResolveNoteKind } from './instructions'
export { findImportRefs, MAX_IMPORT_REFS_PER_FILE } from './import-refs'
export { MEMORY_FILE_BUDGET_CHARS } from './memory'
export { SKILL_DESCRIPTION_MAX_CHARS } from './skills'
export type { SkillSummary } from './skills'
export { detectBuildProfiles } from './build-profiles'
export type { BuildProfile, BuildTool } from './build-profiles'
export { APP_NAME, identityLine } from './static-sections'
export type { FeatureFlags } from './static-sections'
export { sanitizeIdentity, displayPath } from './sanitize'
export { estimateTokens, estimateTokensFromChars } from './estimate'

export { renderNote } from './notes'
export type { ContextNote, ChangedFileKind } from './notes'
export { selectRelevantContext, matchingRules, governingDirs, normalizeRelPath, deliveryKey } from './after-breakpoint'
export type { NestedInstructionFile, RelevanceInput, RelevantContext } from './after-breakpoint'
export { diffGathered, diffSignatures, fileSignatures, type FileSignatures } from './changes'
export type { FileChange } from './changes'
