/**
 * The context map: a pass's estimated tokens by where they came from — tools, static rules, each instruction
 * file, memory, skills, the session context, the history by kind, and the newest input — in cache order.
 *
 * A system block's files are each their own estimate, and the rest of its tokens is shared out over its sections by
 * their character spans; a message's tokens over its content blocks by their JSON size. The result is an estimate like the block counts it is made from.
 */
import { estimateTokensFromChars } from '../../../ui/estimate'
import { isRecord, historyLabel, noteLabel, parsePath, sectionLabel, type BlockInfo, type SegmentLike } from './blocks'

export type SliceGroup =
  | 'tools'
  | 'static'
  | 'instructions'
  | 'memory'
  | 'skills'
  | 'session'
  | 'history-assistant'
  | 'history-tool-results'
  | 'history-user'
  | 'history-summary'
  | 'history'
  | 'newest'
  | 'notes'
  | 'other'

/** Each kind of history its own swatch: the history is most of a long session's bar, and its kinds are told apart. */
const HISTORY_GROUPS: Readonly<Record<string, SliceGroup>> = {
  assistant: 'history-assistant',
  tool_results: 'history-tool-results',
  user_input: 'history-user',
  compaction_summary: 'history-summary',
}

export interface ContextSlice {
  readonly key: string
  readonly label: string
  readonly group: SliceGroup
  readonly tokens: number
  /** The first block (cache-order ordinal) with tokens in this slice, to scroll to. */
  readonly firstOrdinal: number
  readonly file: string | null
}

type Mutable = { -readonly [K in keyof ContextSlice]: ContextSlice[K] }

const STATIC_SECTIONS = new Set(['base_rules', 'identity', 'features', 'build_notes'])

function sectionSlice(section: string, file: string | null): Pick<ContextSlice, 'key' | 'label' | 'group' | 'file'> {
  if (STATIC_SECTIONS.has(section)) return { key: 'static', label: 'Static rules', group: 'static', file: null }
  if (section === 'project_instructions' || section === 'instructions')
    return file ? { key: `file:${file}`, label: file, group: 'instructions', file } : { key: 'instructions', label: 'Instructions (headings)', group: 'instructions', file: null }
  if (section === 'memory') return { key: 'memory', label: 'Memory', group: 'memory', file: null }
  if (section === 'skills') return { key: 'skills', label: 'Skills', group: 'skills', file: null }
  if (section === 'session_context') return { key: 'session', label: 'Session context', group: 'session', file: null }
  return { key: `section:${section}`, label: sectionLabel(section), group: 'other', file: null }
}

function noteSlice(note: string, file: string | null): Pick<ContextSlice, 'key' | 'label' | 'group' | 'file'> {
  if ((note === 'nested_instructions' || note === 'path_rule') && file) return { key: `file:${file}`, label: file, group: 'instructions', file }
  if (note === 'memory_saved') return { key: 'memory', label: 'Memory', group: 'memory', file: null }
  return { key: `note:${note}`, label: `Notes · ${noteLabel(note)}`, group: 'notes', file: null }
}

class Slices {
  private readonly byKey = new Map<string, Mutable>()
  add(part: Pick<ContextSlice, 'key' | 'label' | 'group' | 'file'>, tokens: number, ordinal: number): void {
    if (tokens <= 0) return
    const existing = this.byKey.get(part.key)
    if (existing) {
      existing.tokens += tokens
      existing.firstOrdinal = Math.min(existing.firstOrdinal, ordinal)
    } else this.byKey.set(part.key, { ...part, tokens, firstOrdinal: ordinal })
  }
  list(): ContextSlice[] {
    return [...this.byKey.values()].map((s) => ({ ...s, tokens: Math.round(s.tokens) })).sort((a, b) => a.firstOrdinal - b.firstOrdinal)
  }
}

function addSystem(slices: Slices, block: BlockInfo, provenance: Record<string, unknown>): void {
  const fallback = provenance.block === 'static' ? sectionSlice('base_rules', null) : { key: 'system', label: 'System (other)', group: 'other' as const, file: null }
  const spans = Array.isArray(provenance.spans) ? provenance.spans.filter(isRecord) : []
  const lengthOf = (s: Record<string, unknown>) => Math.max(0, (Number(s.end) || 0) - (Number(s.start) || 0))
  // A section span contains the spans of its files: only what the files do not cover is the section's own.
  const parts = spans.map((s) => {
    const section = typeof s.section === 'string' ? s.section : 'section'
    if (typeof s.file === 'string') return { slice: sectionSlice(section, s.file), chars: lengthOf(s), isFile: true }
    const inner = spans
      .filter((f) => typeof f.file === 'string' && f.section === section && Number(f.start) >= Number(s.start) && Number(f.end) <= Number(s.end))
      .reduce((sum, f) => sum + lengthOf(f), 0)
    return { slice: sectionSlice(section, null), chars: Math.max(0, lengthOf(s) - inner), isFile: false }
  })
  const chars = parts.reduce((sum, p) => sum + p.chars, 0)
  if (chars <= 0) return slices.add(fallback, block.tokens, block.ordinal)
  // A file is its own estimate, whatever else the block holds: shared out with the rest, its figure moved a token in
  // the rounding whenever another file changed the block's size. The rest of the block (the sections' own text, the
  // separators between sections, which belong to no span, and the block's round-up) is shared over the sections'
  // own text by characters, which keeps the total. The Files view sizes the session block the same way
  // (src-main/node/files/listing.ts blockBasis).
  const files = parts.filter((p) => p.isFile)
  const own = parts.filter((p) => !p.isFile)
  const filesTokens = files.reduce((sum, p) => sum + estimateTokensFromChars(p.chars), 0)
  const ownChars = own.reduce((sum, p) => sum + p.chars, 0)
  const rest = block.tokens - filesTokens
  if (ownChars <= 0 || rest < 0) {
    for (const p of parts) slices.add(p.slice, (p.chars * block.tokens) / chars, block.ordinal)
    return
  }
  // In span order: slices of one block keep the order the block has them in.
  for (const p of parts) slices.add(p.slice, p.isFile ? estimateTokensFromChars(p.chars) : (p.chars * rest) / ownChars, block.ordinal)
}

function contentSizes(body: Record<string, unknown> | null, index: number): number[] | null {
  const messages = body?.messages
  const message = Array.isArray(messages) ? messages[index] : undefined
  if (!isRecord(message)) return null
  if (typeof message.content === 'string') return [message.content.length]
  return Array.isArray(message.content) ? message.content.map((c) => JSON.stringify(c).length) : null
}

function isNewestInput(body: Record<string, unknown> | null, index: number): boolean {
  const messages = body?.messages
  if (!Array.isArray(messages) || index !== messages.length - 1) return false
  const last: unknown = messages[index]
  return isRecord(last) && last.role === 'user'
}

function addMessage(slices: Slices, block: BlockInfo, provenance: Record<string, unknown>, body: Record<string, unknown> | null): void {
  const kind = typeof provenance.historyKind === 'string' ? provenance.historyKind : 'history'
  const newest = isNewestInput(body, block.index)
  const own = newest ? { key: 'newest', label: 'Newest input', group: 'newest' as const, file: null } : { key: `history:${kind}`, label: `History · ${historyLabel(kind)}`, group: HISTORY_GROUPS[kind] ?? 'history', file: null }
  const parts = Array.isArray(provenance.blocks) ? provenance.blocks.filter(isRecord) : []
  const sizes = contentSizes(body, block.index)
  if (parts.length === 0 || !sizes || sizes.length !== parts.length) return slices.add(own, block.tokens, block.ordinal)
  const total = sizes.reduce((a, b) => a + b, 0) || 1
  parts.forEach((p, j) => {
    const tokens = (block.tokens * sizes[j]!) / total
    if (p.kind === 'section') slices.add(sectionSlice(typeof p.section === 'string' ? p.section : 'section', null), tokens, block.ordinal)
    else if (p.kind === 'note') slices.add(noteSlice(typeof p.note === 'string' ? p.note : 'text', typeof p.file === 'string' ? p.file : null), tokens, block.ordinal)
    else slices.add(own, tokens, block.ordinal)
  })
}

/** Tokens by source for one pass, in cache order of first appearance. */
export function contextMap(blocks: ReadonlyArray<BlockInfo>, segments: ReadonlyArray<SegmentLike>, body: Record<string, unknown> | null): ContextSlice[] {
  const provenanceByPath = new Map(segments.map((s) => [s.path, s.provenance]))
  const slices = new Slices()
  for (const block of blocks) {
    const p = provenanceByPath.get(block.path)
    const provenance = isRecord(p) ? p : {}
    const { area } = parsePath(block.path)
    if (area === 'tools') slices.add({ key: 'tools', label: 'Tools', group: 'tools', file: null }, block.tokens, block.ordinal)
    else if (area === 'system') addSystem(slices, block, provenance)
    else if (area === 'messages') addMessage(slices, block, provenance, body)
    else slices.add({ key: 'other', label: 'Whole body', group: 'other', file: null }, block.tokens, block.ordinal)
  }
  return slices.list()
}

/**
 * The context map's slices that the pass's cache cause names (src-main/engine/cache/causes.ts, `changed_block`): the
 * instruction files of a changed system block (applied now, or its changed parts), else its sections; the tools; the
 * kind of history of a changed message. Empty for a cause that names no source (cold, expired, a model switch…).
 * The attribution is the store's JSON, read tolerantly as in model/attribution.ts.
 */
export function causeSliceKeys(attribution: unknown): ReadonlySet<string> {
  const cause = isRecord(attribution) && isRecord(attribution.cause) ? attribution.cause : null
  const what = cause?.kind === 'changed_block' && isRecord(cause.what) ? cause.what : null
  const keys = new Set<string>()
  if (what?.kind === 'tools') keys.add('tools')
  if (what?.kind === 'message') keys.add(`history:${typeof what.historyKind === 'string' ? what.historyKind : 'history'}`)
  if (what?.kind === 'system') {
    const sections = Array.isArray(what.sections) ? what.sections.filter(isRecord) : []
    const origin = isRecord(what.origin) ? what.origin : null
    const applied = origin?.kind === 'apply_now' && Array.isArray(origin.paths) ? origin.paths.filter((p): p is string => typeof p === 'string') : []
    // Each changed section's slice as the map keys it: an instruction file by its path, the memory files as one slice,
    // a section named without its files (the static rules, the session context…) by its own; the instructions
    // section without its files names the files applied now instead, each its own slice.
    for (const s of sections) {
      const section = typeof s.section === 'string' ? s.section : 'section'
      const part = typeof s.part === 'string' ? s.part : null
      if (part === null && applied.length > 0 && sectionSlice(section, null).group === 'instructions') continue
      keys.add(sectionSlice(section, part).key)
    }
    for (const path of applied) keys.add(`file:${path}`)
  }
  return keys
}

/** The legend's order: the slices the pass's cause names first, then the largest; the bar keeps cache order. */
export function legendOrder(slices: ReadonlyArray<ContextSlice>, causeKeys: ReadonlySet<string>): ContextSlice[] {
  return [...slices].sort((a, b) => Number(causeKeys.has(b.key)) - Number(causeKeys.has(a.key)) || b.tokens - a.tokens)
}

/** " (+21%)": how far the service's count is from the estimate, when it is at least a percent. */
export function offBy(estimated: number, measured: number): string {
  const off = Math.round((100 * (measured - estimated)) / estimated)
  return off === 0 ? '' : ` (${off > 0 ? '+' : '−'}${Math.abs(off)}%)`
}
