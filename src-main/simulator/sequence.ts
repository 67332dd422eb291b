/**
 * The canonical block sequence of a request (docs/reference/anthropic-api.md §6.1): tools, then system blocks,
 * then every message content block, each with its token count, its running total and the cumulative prefix hash
 * the cache is keyed by. Breakpoints (explicit and automatic, §6.2–6.3) are placed and checked here.
 */
import { createHash, type Hash } from 'node:crypto'
import { invalidRequest } from './errors'
import type { SimModel } from './models'
import { blockText, toolResultText, type SimBlock, type SimRequest, type Ttl } from './request'
import { countTextTokens } from './tokens'

export type Level = 'tools' | 'system' | 'messages'

export interface SeqEntry {
  readonly level: Level
  /** Where the block sits in the body, as the API names it in errors (`messages.3.content.1`). */
  readonly path: string
  readonly tokens: number
  /** Tokens from the start of the prompt up to and including this block. */
  readonly cum: number
  /** Cumulative hash of the prefix ending at this block: the cache key (§5.1 "exact match"). */
  readonly key: string
  readonly breakpoint: Ttl | null
}

export interface Sequence {
  readonly entries: ReadonlyArray<SeqEntry>
  /** Every input token the request is billed for: the blocks plus the generation prompt. */
  readonly totalTokens: number
  readonly imagesPresent: boolean
}

// Framing tokens. Calibrated on the recorded pydantic-ai pair (docs/simulator.md "Token counter"): its second
// request wrote 418 tokens for an assistant answer of 406 output tokens plus an 8-token question, so each message
// costs 2 tokens of framing; and every response reported input_tokens 3 after a breakpoint on the last block, so 3
// tokens after the last block (the assistant turn's opening) are never cacheable.
export const MESSAGE_FRAMING_TOKENS = 2
export const SYSTEM_FRAMING_TOKENS = 2
export const TOOL_FRAMING_TOKENS = 4
export const TOOL_CALL_FRAMING_TOKENS = 4
export const GENERATION_PROMPT_TOKENS = 3
/** §7.2: image tokens are ceil(w/28)·ceil(h/28), capped; used whole when the size cannot be read. */
const IMAGE_TOKEN_CAP = 1568

const tokenMemo = new Map<string, number>()
const TOKEN_MEMO_LIMIT = 50_000

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** JSON with object keys sorted, so two equal blocks hash alike whatever order their keys came in. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const record = value as Record<string, unknown>
  const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`
}

/**
 * Feeds a value's canonical form (keys sorted, `cache_control` on the block itself left out) straight into a
 * hash, without building the JSON text: strings go in as length-prefixed raw text, which is unambiguous and skips
 * JSON escaping of large blocks. Two blocks hash alike exactly when their canonical JSON is alike.
 */
function feedCanonical(hash: Hash, value: unknown, skipKey: string | null = null): void {
  if (typeof value === 'string') {
    hash.update(`s${value.length}:`)
    hash.update(value)
  } else if (value === null || typeof value !== 'object') {
    hash.update(`${typeof value}:${String(value)};`)
  } else if (Array.isArray(value)) {
    hash.update(`[${value.length}`)
    for (const item of value) feedCanonical(hash, item)
    hash.update(']')
  } else {
    const record = value as Record<string, unknown>
    const keys = Object.keys(record).filter((k) => k !== skipKey && record[k] !== undefined).sort()
    hash.update(`{${keys.length}`)
    for (const key of keys) {
      hash.update(`k${key.length}:${key}`)
      feedCanonical(hash, record[key])
    }
    hash.update('}')
  }
}

// Every pass resends the whole prefix, so most text blocks were hashed before. Looking a text up in a Map costs
// far less than SHA-256 over it; the memo is bounded by the characters it holds.
const textDigests = new Map<string, string>()
const TEXT_DIGEST_MEMO_CHARS = 16 * 1024 * 1024
let textDigestChars = 0

function isPlainText(block: SimBlock): block is SimBlock & { readonly text: string } {
  if (block.type !== 'text' || typeof block.text !== 'string') return false
  for (const key in block) if (key !== 'type' && key !== 'text' && key !== 'cache_control') return false
  return true
}

function blockDigest(block: SimBlock): string {
  const plain = isPlainText(block)
  if (plain) {
    const known = textDigests.get(block.text)
    if (known !== undefined) return known
  }
  const hash = createHash('sha256')
  feedCanonical(hash, block, 'cache_control')
  const digest = hash.digest('hex')
  if (plain) {
    if (textDigestChars + block.text.length > TEXT_DIGEST_MEMO_CHARS) {
      textDigests.clear()
      textDigestChars = 0
    }
    textDigests.set(block.text, digest)
    textDigestChars += block.text.length
  }
  return digest
}

function withoutCacheControl(block: object): object {
  if (!('cache_control' in block)) return block
  const { cache_control: _omit, ...rest } = block as Record<string, unknown>
  return rest
}

/** Image size from a PNG or GIF header; null for other formats. */
function imageSize(block: SimBlock): { width: number; height: number } | null {
  const source = block.source as { type?: string; data?: string } | undefined
  if (source?.type !== 'base64' || typeof source.data !== 'string') return null
  const head = Buffer.from(source.data.slice(0, 64), 'base64')
  if (head.length >= 24 && head.readUInt32BE(0) === 0x89504e47) return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) }
  if (head.length >= 10 && head.toString('latin1', 0, 3) === 'GIF') return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) }
  return null
}

function imageTokens(block: SimBlock): number {
  const size = imageSize(block)
  if (!size) return IMAGE_TOKEN_CAP
  return Math.min(IMAGE_TOKEN_CAP, Math.ceil(size.width / 28) * Math.ceil(size.height / 28))
}

/** Tokens of a block's own content, without framing. */
function contentTokens(block: SimBlock, isTool: boolean): number {
  if (isTool) {
    return TOOL_FRAMING_TOKENS + countTextTokens(String(block.name ?? '')) + countTextTokens(String(block.description ?? '')) + countTextTokens(JSON.stringify(block.input_schema ?? {}))
  }
  switch (block.type) {
    case 'text':
      return countTextTokens(blockText(block))
    case 'image':
      return imageTokens(block)
    case 'tool_use':
    case 'server_tool_use':
      return TOOL_CALL_FRAMING_TOKENS + countTextTokens(String(block.name ?? '')) + countTextTokens(JSON.stringify(block.input ?? {}))
    case 'tool_result': {
      const nested = Array.isArray(block.content) ? (block.content as SimBlock[]).filter((b) => b?.type === 'image') : []
      return TOOL_CALL_FRAMING_TOKENS + countTextTokens(toolResultText(block)) + nested.reduce((sum, b) => sum + imageTokens(b), 0)
    }
    case 'thinking':
      return countTextTokens(typeof block.thinking === 'string' ? block.thinking : '')
    case 'redacted_thinking':
      return Math.ceil(String(block.data ?? '').length / 4)
    default:
      return countTextTokens(JSON.stringify(withoutCacheControl(block)))
  }
}

function memoTokens(digest: string, compute: () => number): number {
  const known = tokenMemo.get(digest)
  if (known !== undefined) return known
  const tokens = compute()
  if (tokenMemo.size >= TOKEN_MEMO_LIMIT) tokenMemo.clear()
  tokenMemo.set(digest, tokens)
  return tokens
}

interface RawEntry {
  readonly level: Level
  readonly path: string
  readonly block: SimBlock
  readonly isTool: boolean
  readonly framing: number
  explicit: Ttl | null
  readonly eligible: boolean
}

function ttlOf(block: { cache_control?: unknown }): Ttl | null {
  const cc = block.cache_control as { type?: string; ttl?: string } | null | undefined
  if (!cc) return null
  if (cc.type !== 'ephemeral') throw invalidRequest("cache_control.type: Input should be 'ephemeral'")
  if (cc.ttl === undefined) return '5m'
  if (cc.ttl !== '5m' && cc.ttl !== '1h') throw invalidRequest("cache_control.ttl: Input should be '5m' or '1h'")
  return cc.ttl
}

/** §2.5: the index of the newest user message that carries something other than tool results. */
function lastHumanTurn(request: SimRequest): number {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i]!
    if (m.role === 'user' && m.content.some((b) => b.type !== 'tool_result')) return i
  }
  return -1
}

function rawEntries(request: SimRequest, model: SimModel): RawEntry[] {
  const entries: RawEntry[] = []
  const forced = request.tool_choice?.type === 'any' || request.tool_choice?.type === 'tool'
  request.tools.forEach((tool, i) => {
    entries.push({ level: 'tools', path: `tools.${i}`, block: tool as unknown as SimBlock, isTool: true, framing: i === 0 ? model.toolPromptTokens.auto : 0, explicit: ttlOf(tool), eligible: true })
  })
  request.system.forEach((block, i) => {
    entries.push({ level: 'system', path: `system.${i}`, block, isTool: false, framing: i === 0 ? SYSTEM_FRAMING_TOKENS : 0, explicit: ttlOf(block), eligible: true })
  })
  const strippedBefore = model.stripsPriorThinking ? lastHumanTurn(request) : -1
  // A forced tool_choice renders a longer tool prompt; the extra sits at the start of the messages so that a
  // tools-level cache entry keeps one token count whatever the choice (tool_choice is a messages-level salt, §5.3).
  let extra = forced && request.tools.length > 0 ? model.toolPromptTokens.forced - model.toolPromptTokens.auto : 0
  request.messages.forEach((message, i) => {
    let first = true
    message.content.forEach((block, j) => {
      const thinking = block.type === 'thinking' || block.type === 'redacted_thinking'
      const path = `messages.${i}.content.${j}`
      if (thinking && block.cache_control) throw invalidRequest(`${path}.${block.type}.cache_control: Extra inputs are not permitted`)
      if (thinking && message.role === 'assistant' && i < strippedBefore) return
      entries.push({ level: 'messages', path, block, isTool: false, framing: (first ? MESSAGE_FRAMING_TOKENS : 0) + extra, explicit: ttlOf(block), eligible: !thinking })
      first = false
      extra = 0
    })
  })
  return entries
}

/** §6.2–6.3: at most 4 breakpoints counting the automatic one, and no 1h breakpoint after a 5m one. */
function placeBreakpoints(request: SimRequest, entries: RawEntry[]): void {
  const explicit = entries.filter((e) => e.explicit !== null).length
  const auto = request.cache_control ? ttlOf({ cache_control: request.cache_control }) : null
  if (auto) {
    const target = [...entries].reverse().find((e) => e.eligible)
    if (target && target.explicit === null) {
      if (explicit >= 4) throw invalidRequest(`A maximum of 4 blocks with cache_control may be provided. Found ${explicit + 1}.`)
      target.explicit = auto
    } else if (target && target.explicit !== auto) {
      throw invalidRequest(`cache_control: the top-level cache_control ttl='${auto}' conflicts with ttl='${target.explicit}' already set on ${target.path}`)
    }
  }
  const count = entries.filter((e) => e.explicit !== null).length
  if (count > 4) throw invalidRequest(`A maximum of 4 blocks with cache_control may be provided. Found ${count}.`)
  let seen5m = false
  for (const e of entries) {
    if (e.explicit === '5m') seen5m = true
    if (e.explicit === '1h' && seen5m) {
      throw invalidRequest(`${e.path}.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: \`tools\`, \`system\`, \`messages\`.`)
    }
  }
}

function hasImage(request: SimRequest): boolean {
  return request.messages.some((m) =>
    m.content.some((b) => b.type === 'image' || (b.type === 'tool_result' && Array.isArray(b.content) && (b.content as SimBlock[]).some((c) => c?.type === 'image'))),
  )
}

/** Builds the sequence. Level salts make the hash follow the invalidation table of §5.3. */
export function buildSequence(request: SimRequest, model: SimModel): Sequence {
  const raw = rawEntries(request, model)
  placeBreakpoints(request, raw)
  const imagesPresent = hasImage(request)
  const salts: Record<Level, string> = {
    tools: canonicalJson({ model: model.id }),
    system: canonicalJson({ speed: request.speed ?? 'standard' }),
    messages: canonicalJson({
      tool_choice: request.tool_choice ?? { type: 'auto' },
      images: imagesPresent,
      thinking: request.thinking ?? { type: 'disabled' },
      effort: request.output_config?.effort ?? null,
    }),
  }
  const entries: SeqEntry[] = []
  let key = ''
  let cum = 0
  let level: Level | null = null
  const advance = (to: Level): void => {
    const order: Level[] = ['tools', 'system', 'messages']
    const from = level === null ? -1 : order.indexOf(level)
    for (let k = from + 1; k <= order.indexOf(to); k++) key = sha256(`${key}|salt:${order[k]!}|${salts[order[k]!]}`)
    level = to
  }
  for (const e of raw) {
    if (level !== e.level) advance(e.level)
    const digest = blockDigest(e.block)
    const tokens = Math.max(1, memoTokens(`${e.isTool ? 't' : 'b'}:${digest}`, () => contentTokens(e.block, e.isTool)) + e.framing)
    cum += tokens
    key = sha256(`${key}|${digest}`)
    entries.push({ level: e.level, path: e.path, tokens, cum, key, breakpoint: e.explicit })
  }
  return { entries, totalTokens: cum + GENERATION_PROMPT_TOKENS, imagesPresent }
}
