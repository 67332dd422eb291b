/**
 * The part of a pass above the message history: tools sorted by name, the static block system[0] and the session
 * block system[1], with a fingerprint per section. These inputs are frozen for the session, so the result is
 * remembered: a pass whose tools, settings and frozen values are the same objects as the last pass's reuses it,
 * and a pass with equal texts in new objects reuses the hashes.
 */
import type { Hasher } from '../ports'
import type { WireTool } from '../model/wire'
import type { PromptInput } from './input'
import type { PlannedTool, SectionFingerprint, SectionSpan } from './plan'
import type { ExtraSection, Stability } from './sections'
import type { RenderedPart } from './budget'
import { PlanError } from './errors'
import { estimateTokens } from './estimate'
import { SECTION_SEPARATOR, SECTIONS } from './sections'
import { baseRules, buildNotes, featureLines, identityLine } from './static-sections'

export interface SystemText {
  readonly text: string
  readonly spans: ReadonlyArray<SectionSpan>
}

export interface SystemPart {
  readonly tools: ReadonlyArray<PlannedTool>
  readonly staticBlock: SystemText
  /** Null when the session has no instructions, memory or skills. */
  readonly sessionBlock: SystemText | null
  readonly fingerprints: ReadonlyArray<SectionFingerprint>
  readonly toolTokens: number
}

interface SectionText {
  readonly name: string
  readonly stability: Stability
  readonly text: string
  readonly parts: ReadonlyArray<RenderedPart>
}

function checkExtras(extras: ReadonlyArray<ExtraSection>): void {
  const names = new Set<string>(SECTIONS.map((s) => s.name))
  for (const extra of extras) {
    if (names.has(extra.name)) throw new PlanError('duplicate_section', `section ${extra.name} is defined twice`)
    names.add(extra.name)
    if (extra.stability === 'volatile') {
      if (extra.reason === undefined || extra.reason.trim() === '') {
        throw new PlanError('volatile_without_reason', `volatile section ${extra.name} must say why it changes every pass`)
      }
      if (extra.placement !== 'tail') {
        throw new PlanError('volatile_above_breakpoint', `volatile section ${extra.name} cannot go in the ${extra.placement.replace('_', ' ')}, which ends at a breakpoint`)
      }
    }
  }
}

function joinSections(sections: ReadonlyArray<SectionText>): SystemText | null {
  let text = ''
  const spans: SectionSpan[] = []
  for (const section of sections) {
    if (section.text === '') continue
    if (text !== '') text += SECTION_SEPARATOR
    const start = text.length
    text += section.text
    spans.push({ section: section.name, file: null, start, end: text.length })
    for (const part of section.parts) {
      spans.push({ section: section.name, file: part.path, start: start + part.start, end: start + part.end })
    }
  }
  return text === '' ? null : { text, spans }
}

function canonicalTool(tool: WireTool): WireTool {
  return { name: tool.name, description: tool.description, input_schema: tool.input_schema }
}

interface ToolsResult {
  readonly planned: ReadonlyArray<PlannedTool>
  readonly json: string
  readonly tokens: number
}

const toolsMemo = new WeakMap<ReadonlyArray<WireTool>, ToolsResult>()

function planTools(tools: ReadonlyArray<WireTool>): ToolsResult {
  const cached = toolsMemo.get(tools)
  if (cached !== undefined) return cached
  // Code-unit order, not localeCompare: the order must not depend on the machine's locale.
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const planned: PlannedTool[] = []
  let tokens = 0
  for (let i = 0; i < sorted.length; i++) {
    const tool = sorted[i]!
    if (i > 0 && sorted[i - 1]!.name === tool.name) throw new PlanError('duplicate_tool', `tool ${tool.name} is listed twice`)
    const wire = canonicalTool(tool)
    const t = estimateTokens(JSON.stringify(wire))
    tokens += t
    planned.push({ wire, stability: 'session', provenance: { kind: 'tool', name: tool.name }, tokens: t, breakpoint: null })
  }
  const result = { planned, json: JSON.stringify(planned.map((p) => p.wire)), tokens }
  toolsMemo.set(tools, result)
  return result
}

function fingerprint(
  hasher: Hasher,
  previous: ReadonlyMap<string, string>,
  fresh: Map<string, string>,
  section: string,
  part: string | null,
  stability: Stability,
  text: string,
): SectionFingerprint {
  let sha256 = fresh.get(text) ?? previous.get(text)
  if (sha256 === undefined) sha256 = hasher.sha256Hex(text)
  fresh.set(text, sha256)
  return { section, part, stability, sha256, chars: text.length, tokens: estimateTokens(text) }
}

interface MemoKey {
  readonly model: string
  readonly settings: PromptInput['settings']
  readonly project: PromptInput['project']
  readonly tools: PromptInput['tools']
  readonly extraSections: PromptInput['extraSections']
  readonly hasher: Hasher
}

interface Memo {
  readonly key: MemoKey
  readonly part: SystemPart
  /** Section hashes by text: equal texts in new objects are not hashed again. */
  readonly hashes: ReadonlyMap<string, string>
}

/** One entry per frozen session block, so interleaved sessions do not evict each other. */
const memo = new WeakMap<PromptInput['session'], Memo>()

function sameKey(a: MemoKey, b: MemoKey): boolean {
  return (
    a.model === b.model &&
    a.settings === b.settings &&
    a.project === b.project &&
    a.tools === b.tools &&
    a.extraSections === b.extraSections &&
    a.hasher === b.hasher
  )
}

export function planSystem(input: PromptInput): SystemPart {
  const key: MemoKey = {
    model: input.model,
    settings: input.settings,
    project: input.project,
    tools: input.tools,
    extraSections: input.extraSections,
    hasher: input.hasher,
  }
  const previous = memo.get(input.session)
  if (previous !== undefined && sameKey(previous.key, key)) return previous.part
  const fresh = new Map<string, string>()
  const part = computeSystem(input, previous?.hashes ?? new Map(), fresh)
  memo.set(input.session, { key, part, hashes: fresh })
  return part
}

function computeSystem(input: PromptInput, previous: ReadonlyMap<string, string>, fresh: Map<string, string>): SystemPart {
  const extras = input.extraSections ?? []
  checkExtras(extras)
  const tools = planTools(input.tools)
  const extraText = (placement: ExtraSection['placement']): SectionText[] =>
    extras.filter((e) => e.placement === placement).map((e) => ({ name: e.name, stability: e.stability, text: e.text, parts: [] }))
  const staticSections: SectionText[] = [
    { name: 'base_rules', stability: 'static', text: baseRules(input.project.root), parts: [] },
    { name: 'identity', stability: 'static', text: identityLine(input.model), parts: [] },
    { name: 'features', stability: 'static', text: featureLines(input.settings.features), parts: [] },
    { name: 'build_notes', stability: 'static', text: buildNotes(input.project.buildProfiles), parts: [] },
    ...extraText('static_block'),
  ]
  const session = input.session
  const sessionSections: SectionText[] = [
    { name: 'project_instructions', stability: 'session', text: session.instructions.text, parts: session.instructions.parts },
    { name: 'memory', stability: 'session', text: session.memory.text, parts: session.memory.parts },
    { name: 'skills', stability: 'session', text: session.skills.text, parts: [] },
    ...extraText('session_block'),
  ]
  const fingerprints: SectionFingerprint[] = [fingerprint(input.hasher, previous, fresh, 'tools', null, 'session', tools.json)]
  for (const section of [...staticSections, ...sessionSections]) {
    if (section.text === '') continue
    fingerprints.push(fingerprint(input.hasher, previous, fresh, section.name, null, section.stability, section.text))
    for (const p of section.parts) {
      fingerprints.push(fingerprint(input.hasher, previous, fresh, section.name, p.path, section.stability, section.text.slice(p.start, p.end)))
    }
  }
  return {
    tools: tools.planned,
    staticBlock: joinSections(staticSections) ?? { text: identityLine(input.model), spans: [] },
    sessionBlock: joinSections(sessionSections),
    fingerprints,
    toolTokens: tools.tokens,
  }
}
