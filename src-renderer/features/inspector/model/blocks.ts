/**
 * What the inspector says about each block of a pass: a label for where it came from (provenance), the files and
 * entries behind it, its estimated tokens and its breakpoint tag. Reads the `segments` of `pass.get` (written by
 * src-main/node/session/store-log.ts) and tolerates provenance it does not know (an imported session has none).
 */
import type { Area } from './pretty'
import { estimateTokensFromChars } from '../../../ui/estimate'

export type BreakpointTag = 'static' | 'session' | 'previous_tail' | 'newest_tail'

/** One segment as `pass.get` serves it. */
export interface SegmentLike {
  readonly ordinal: number
  readonly path: string
  readonly hash: string
  readonly bytes: number
  readonly provenance: unknown
  readonly breakpoint: string | null
}

export interface BlockInfo {
  readonly ordinal: number
  readonly path: string
  readonly area: Area | 'body'
  readonly index: number
  /** Short, for a gutter: "tool · bash", "system · session", "tool results". */
  readonly label: string
  /** Longer, for a tooltip: sections, entry ids, notes. */
  readonly detail: string
  /** Files whose text is in this block (instruction, memory, nested instruction files). */
  readonly files: ReadonlyArray<string>
  readonly entryIds: ReadonlyArray<string>
  /** Estimated tokens (the plan's ceil(chars / 4), src-main/engine/prompt/estimate.ts). */
  readonly tokens: number
  readonly breakpoint: BreakpointTag | null
}

const HISTORY_LABELS: Readonly<Record<string, string>> = {
  user_input: 'user input',
  assistant: 'assistant',
  tool_results: 'tool results',
  compaction_summary: 'compaction summary',
  synthetic: 'synthetic',
}

const NOTE_LABELS: Readonly<Record<string, string>> = {
  memory_saved: 'memory saved',
  nested_instructions: 'nested instructions',
  path_rule: 'path rule',
  file_changed: 'file changed',
  text: 'note',
}

const SECTION_LABELS: Readonly<Record<string, string>> = {
  base_rules: 'base rules',
  identity: 'identity',
  features: 'features',
  build_notes: 'build notes',
  project_instructions: 'instructions',
  memory: 'memory',
  skills: 'skills',
  session_context: 'session context',
}

export function sectionLabel(section: string): string {
  return SECTION_LABELS[section] ?? section.replace(/_/g, ' ')
}
export function historyLabel(kind: string): string {
  return HISTORY_LABELS[kind] ?? kind.replace(/_/g, ' ')
}
export function noteLabel(kind: string): string {
  return NOTE_LABELS[kind] ?? kind.replace(/_/g, ' ')
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}
function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

export function parsePath(path: string): { area: Area | 'body'; index: number } {
  const m = /^(tools|system|messages)\[(\d+)\]$/.exec(path)
  return m ? { area: m[1] as Area, index: Number(m[2]) } : { area: 'body', index: 0 }
}

function asTag(value: string | null): BreakpointTag | null {
  return value === 'static' || value === 'session' || value === 'previous_tail' || value === 'newest_tail' ? value : null
}

/** The plan's tool token total, shared out over the tools by size (tool provenance carries no count of its own). */
function toolTokens(segments: ReadonlyArray<SegmentLike>, plan: unknown): Map<number, number> {
  const tools = segments.filter((s) => s.path.startsWith('tools['))
  const planTokens = isRecord(plan) && isRecord(plan.tokens) && typeof plan.tokens.tools === 'number' ? plan.tokens.tools : null
  const bytes = tools.reduce((sum, s) => sum + s.bytes, 0)
  const out = new Map<number, number>()
  for (const s of tools) out.set(s.ordinal, planTokens !== null && bytes > 0 ? Math.round((planTokens * s.bytes) / bytes) : estimateTokensFromChars(s.bytes))
  return out
}

interface Described {
  readonly label: string
  readonly detail: string
  readonly files: string[]
  readonly entryIds: string[]
  readonly tokens: number | null
}

function describeProvenance(p: unknown, area: Area | 'body'): Described {
  if (!isRecord(p)) return { label: area === 'body' ? 'whole body' : `${area} · provenance unknown`, detail: 'No provenance was recorded for this block.', files: [], entryIds: [], tokens: null }
  const tokens = typeof p.tokens === 'number' ? p.tokens : null
  switch (p.kind) {
    case 'tool': {
      const name = str(p.name) ?? '?'
      return { label: `tool · ${name}`, detail: `Tool definition "${name}" (sorted by name, fixed for the session).`, files: [], entryIds: [], tokens }
    }
    case 'system': {
      const block = str(p.block) ?? '?'
      const spans = Array.isArray(p.spans) ? p.spans.filter(isRecord) : []
      const sections = [...new Set(spans.map((s) => str(s.section)).filter((s): s is string => s !== null))].map(sectionLabel)
      const files = [...new Set(spans.map((s) => str(s.file)).filter((f): f is string => f !== null))]
      const detail = `System block (${block}): ${sections.join(', ') || 'no sections'}${files.length ? ` · files: ${files.join(', ')}` : ''}`
      return { label: `system · ${block}`, detail, files, entryIds: [], tokens }
    }
    case 'history': {
      const kind = str(p.historyKind) ?? str(p.kind) ?? 'history'
      const entryIds = strings(p.entryIds)
      const blocks = Array.isArray(p.blocks) ? p.blocks.filter(isRecord) : []
      const extras: string[] = []
      const files: string[] = []
      for (const b of blocks) {
        if (b.kind === 'section') extras.push(sectionLabel(str(b.section) ?? 'section'))
        else if (b.kind === 'note') {
          const file = str(b.file)
          extras.push(file ? `${noteLabel(str(b.note) ?? 'note')}: ${file}` : noteLabel(str(b.note) ?? 'note'))
          if (file) files.push(file)
        } else if (b.kind === 'edit' || b.kind === 'context_edit') extras.push(`context edit${str(b.edit) ? ` by ${str(b.edit)}` : ''}`)
      }
      const edit = str(p.edit) ?? str(p.contextEdit)
      if (edit) extras.push(`context edit by ${edit}`)
      const head = historyLabel(kind)
      const label = extras.length ? `${head} + ${[...new Set(extras)].join(', ')}` : head
      const detail = `Message from ${entryIds.length ? `entry ${entryIds.join(', ')}` : 'no recorded entry'}${extras.length ? ` · with ${[...new Set(extras)].join(', ')}` : ''}`
      return { label, detail, files, entryIds, tokens }
    }
    case 'body':
      return { label: 'whole body', detail: 'The body could not be split into blocks; it is stored whole.', files: [], entryIds: [], tokens }
    default: {
      const kind = str(p.kind) ?? 'unknown'
      return { label: `${area} · ${kind}`, detail: JSON.stringify(p).slice(0, 300), files: [], entryIds: strings(p.entryIds), tokens }
    }
  }
}

/** Labels, files, tokens and breakpoint tags for the segments of one pass, in cache order. */
export function describeBlocks(segments: ReadonlyArray<SegmentLike>, plan: unknown): BlockInfo[] {
  const tools = toolTokens(segments, plan)
  return [...segments]
    .sort((a, b) => a.ordinal - b.ordinal)
    .map((s) => {
      const { area, index } = parsePath(s.path)
      const d = describeProvenance(s.provenance, area)
      return {
        ordinal: s.ordinal,
        path: s.path,
        area,
        index,
        label: d.label,
        detail: d.detail,
        files: d.files,
        entryIds: d.entryIds,
        tokens: d.tokens ?? tools.get(s.ordinal) ?? estimateTokensFromChars(s.bytes),
        breakpoint: asTag(s.breakpoint),
      }
    })
}
