/**
 * The file-reading side of the prompt builder: gathers instruction, rule, memory and skill files and the session
 * facts from disk through one safe door, and hands plain values to the pure engine (src-main/engine/prompt/).
 */
export { gatherProjectContext, PROJECT_FILES, LOCAL_FILES } from './gather'
export type { GatherOptions } from './gather'
export { createNestedContextReader } from './nested'
export type { NestedContext, NestedContextReader, NestedContextOptions, FrozenInstructions } from './nested'
export { locate, readLocated, isInside, nodeFileAccess } from './safe-read'
export type { FileAccess, Located } from './safe-read'
export { displayPathFor } from './file-table'
