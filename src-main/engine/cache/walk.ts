/**
 * A request as the prompt cache reads it (docs/reference/anthropic-api.md §6.1): every block in cache order —
 * tools, then system, then each message's content blocks — with a digest of its JSON minus `cache_control`, a token
 * estimate, its breakpoint if it carries one, and a key for the prefix that ends at it.
 *
 * Keys chain the digests (`key_i = sha256(key_{i-1} ‖ digest_i)`), with level salts folded in where §6.1 puts them:
 * the model before the first tool, and tool_choice, thinking and image presence before the first message. A change
 * to any of them therefore changes every key after its level, which is the invalidation table of §5.3. Two prefixes
 * have the same key exactly when the API would treat them as the same cache entry.
 *
 * On a model that strips earlier turns' thinking (§2.5), the thinking blocks of assistant messages before the newest
 * human turn are not part of what the cache sees, so they are left out of the walk: a new human turn then changes
 * every key from the first stripped block on, as it changes the service's prefix.
 */
import type { CacheTtl, ContentBlock, WireRequest } from '../model/wire'
import type { Hasher } from '../ports'
import { IMAGE_TOKENS_ESTIMATE } from '../prompt/estimate'

export type CacheArea = 'tools' | 'system' | 'messages'

export interface WalkBlock {
  readonly area: CacheArea
  /** Index in `tools`, `system` or `messages`. */
  readonly index: number
  /** Index inside the message's content (0 for a tool or a system block). */
  readonly blockIndex: number
  /** sha256 of the block's JSON without `cache_control`. */
  readonly digest: string
  /** Estimated tokens: ceil(characters / 4), images at a flat estimate (the engine has no tokenizer). */
  readonly tokens: number
  /** The block's breakpoint TTL, or null when it carries no marker. */
  readonly ttl: CacheTtl | null
  /** Whether a marker may go here (§5.1: not on thinking or an empty text block). */
  readonly markable: boolean
}

export interface RequestWalk {
  readonly model: string
  readonly blocks: ReadonlyArray<WalkBlock>
  /** Prefix key ending at each position. */
  readonly keys: ReadonlyArray<string>
  /** Estimated cumulative tokens through each position. */
  readonly cum: ReadonlyArray<number>
  /** Positions that carry a breakpoint, ascending. */
  readonly breakpoints: ReadonlyArray<number>
  readonly estimatedTotal: number
  readonly messageCount: number
  /** Position of the first block of each message (the next message's start when a message is empty). */
  readonly messageStarts: ReadonlyArray<number>
  readonly toolNames: ReadonlyArray<string>
  /** The salts, kept so a later walk can tell which level's settings changed. */
  readonly salts: { readonly model: string; readonly system: string; readonly messages: string }
  /** The request had a top-level `cache_control` (§6.3): one of its blocks carries a breakpoint its object does not. */
  readonly automatic: boolean
  /**
   * The request's tools, system blocks and messages as objects, in order, and the block count after each: a later
   * walk of a request that holds the same objects (the builder keeps them from pass to pass) takes their blocks,
   * keys and counts from this one instead of walking them again.
   */
  readonly refs: ReadonlyArray<object>
  readonly refEnds: ReadonlyArray<number>
  /** The newest human turn: the last user message that is not only tool results (-1: none). */
  readonly humanTurn: number
  /** Messages before this index have their thinking left out (-1: none; the model keeps prior thinking). */
  readonly strippedBefore: number
  /** The assistant messages whose thinking was left out, ascending. */
  readonly thinkingStripped: ReadonlyArray<number>
}

/** `tools[3]`, `system[1]`, `messages[4].content[2]`. */
export function blockPath(block: Pick<WalkBlock, 'area' | 'index' | 'blockIndex'>): string {
  return block.area === 'messages' ? `messages[${block.index}].content[${block.blockIndex}]` : `${block.area}[${block.index}]`
}

/** `messages[4]` for a message block, else the block's path: how a cause names where the change is. */
export function shortPath(block: Pick<WalkBlock, 'area' | 'index' | 'blockIndex'>): string {
  return block.area === 'messages' ? `messages[${block.index}]` : `${block.area}[${block.index}]`
}

interface DigestMemo {
  readonly digest: string
  readonly tokens: number
}

// Blocks are values the builder keeps by identity from pass to pass, so a block seen before costs a lookup.
const memoByHasher = new WeakMap<Hasher, WeakMap<object, DigestMemo>>()

function memoFor(hasher: Hasher): WeakMap<object, DigestMemo> {
  let memo = memoByHasher.get(hasher)
  if (!memo) {
    memo = new WeakMap()
    memoByHasher.set(hasher, memo)
  }
  return memo
}

function withoutCacheControl(block: object): object {
  if (!('cache_control' in block)) return block
  const { cache_control: _drop, ...rest } = block as { cache_control?: unknown }
  return rest
}

/** Characters of text an image's base64 payload would add; replaced by the flat image estimate. */
function imagePayloadChars(block: object): { chars: number; images: number } {
  const b = block as { type?: unknown; source?: { data?: unknown }; content?: unknown }
  if (b.type === 'image' && typeof b.source?.data === 'string') return { chars: b.source.data.length, images: 1 }
  if (b.type === 'tool_result' && Array.isArray(b.content)) {
    let chars = 0
    let images = 0
    for (const inner of b.content as object[]) {
      const r = imagePayloadChars(inner)
      chars += r.chars
      images += r.images
    }
    return { chars, images }
  }
  return { chars: 0, images: 0 }
}

function digestBlock(block: object, hasher: Hasher, memo: WeakMap<object, DigestMemo>): DigestMemo {
  const known = memo.get(block)
  if (known) return known
  const json = JSON.stringify(withoutCacheControl(block))
  const payload = imagePayloadChars(block)
  const tokens = Math.ceil(Math.max(0, json.length - payload.chars) / 4) + payload.images * IMAGE_TOKENS_ESTIMATE
  const result = { digest: hasher.sha256Hex(json), tokens }
  memo.set(block, result)
  return result
}

function ttlOf(block: object): CacheTtl | null {
  const cc = (block as { cache_control?: { type?: unknown; ttl?: unknown } | null }).cache_control
  if (!cc || cc.type !== 'ephemeral') return null
  return cc.ttl === '1h' ? '1h' : '5m'
}

function isMarkable(block: object): boolean {
  const b = block as { type?: unknown; text?: unknown }
  if (b.type === 'thinking' || b.type === 'redacted_thinking') return false
  if (b.type === 'text') return typeof b.text === 'string' && b.text.length > 0
  return true
}

const imageMemo = new WeakMap<object, boolean>()

function hasImage(messages: WireRequest['messages']): boolean {
  return messages.some((m) => {
    let known = imageMemo.get(m)
    if (known === undefined) {
      known = m.content.some((b: ContentBlock) => b.type === 'image' || (b.type === 'tool_result' && Array.isArray(b.content) && b.content.some((c) => c.type === 'image')))
      imageMemo.set(m, known)
    }
    return known
  })
}

/**
 * The request fields that salt each level (§5.3): what else a cached prefix depends on. A value the API takes as
 * its default salts as if it were left out (an explicit `tool_choice: {type:'auto'}`, `thinking: {type:'disabled'}`,
 * `speed: 'standard'`), and a field left out adds nothing, so the salts of requests without them never change.
 */
function levelSalts(request: WireRequest): RequestWalk['salts'] {
  const extra = request as unknown as { speed?: unknown; output_config?: { effort?: unknown } }
  const toolChoice = request.tool_choice
  const thinking = request.thinking as { type?: unknown } | undefined
  const speed = extra.speed === undefined || extra.speed === 'standard' ? null : extra.speed
  const effort = extra.output_config?.effort
  return {
    // `speed: null` is what every key was made with when speed salted the model level: kept, so those keys hold.
    model: JSON.stringify({ model: request.model, speed: null }),
    // Speed leaves the tools cached and moves the system and messages levels.
    system: speed === null ? '' : JSON.stringify({ speed }),
    messages: JSON.stringify({
      tool_choice: toolChoice === undefined || (toolChoice.type === 'auto' && Object.keys(toolChoice).length === 1) ? null : toolChoice,
      thinking: thinking === undefined || (thinking.type === 'disabled' && Object.keys(thinking).length === 1) ? null : thinking,
      images: hasImage(request.messages),
      ...(effort !== undefined ? { effort } : {}),
    }),
  }
}

export interface WalkOptions {
  /** The walk of an earlier request: keys of a shared prefix are taken from it instead of hashed again. */
  readonly previous?: RequestWalk | null
  /** The request's model drops earlier turns' thinking (CacheModel.stripsPriorThinking). */
  readonly stripsPriorThinking?: boolean
}

/** §2.5: the newest user message that carries something other than tool results, or -1. */
function newestHumanTurn(messages: WireRequest['messages']): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (m.role === 'user' && m.content.some((b) => b.type !== 'tool_result')) return i
  }
  return -1
}

function isThinking(block: ContentBlock): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking'
}

const thinkingMemo = new WeakMap<object, boolean>()

/** The assistant messages before `before` that carry thinking: what a stripping model leaves out. */
function thinkingMessages(messages: WireRequest['messages'], before: number): number[] {
  const out: number[] = []
  for (let i = 0; i < before; i++) {
    const m = messages[i]!
    if (m.role !== 'assistant') continue
    let known = thinkingMemo.get(m)
    if (known === undefined) {
      known = m.content.some(isThinking)
      thinkingMemo.set(m, known)
    }
    if (known) out.push(i)
  }
  return out
}

/** Walks a request in cache order. Pure; hashing goes through the Hasher port. */
export function walkRequest(request: WireRequest, hasher: Hasher, options: WalkOptions = {}): RequestWalk {
  const memo = memoFor(hasher)
  const salts = levelSalts(request)
  const tools = request.tools ?? []
  const system = request.system ?? []
  const refs: object[] = [...tools, ...system, ...request.messages]
  const automatic = (request as unknown as { cache_control?: unknown }).cache_control !== undefined
  const previous = options.previous ?? null
  const humanTurn = newestHumanTurn(request.messages)
  const strippedBefore = options.stripsPriorThinking ? humanTurn : -1

  // Objects the previous request also held, at the same place: their blocks are taken as they are (same object,
  // same bytes, same marker). Message objects only when the messages salt is the same.
  // Neither walk may have a top-level cache_control: its breakpoint is set on a block of its own, which the other's
  // same object does not carry.
  const reuse = previous !== null && !automatic && !previous.automatic && previous.salts.model === salts.model
  const firstMessageRef = tools.length + system.length
  // A message block records its message's index, so messages are shared only when they start at the same ref.
  const systemSame = reuse && previous.salts.system === salts.system
  const messagesSame = systemSame && previous.salts.messages === salts.messages && previous.refs.length - previous.messageCount === firstMessageRef
  const blocks: WalkBlock[] = []
  const refEnds: number[] = []
  const messageStarts: number[] = []
  const toolNames = tools.map((t) => t.name)
  let sharedBlocks = 0
  let sharing = true
  for (let r = 0; r < refs.length; r++) {
    const ref = refs[r]!
    const start = blocks.length
    if (r >= firstMessageRef) messageStarts.push(start)
    // A message is taken only when it is stripped (or not) as it was: a new human turn strips the ones before it.
    const strippedAlike = r < firstMessageRef || (r - firstMessageRef < strippedBefore) === (r - firstMessageRef < (previous?.strippedBefore ?? -1))
    if (reuse && previous.refs[r] === ref && (r < tools.length || (r < firstMessageRef ? systemSame : messagesSame)) && strippedAlike && (r === 0 ? 0 : previous.refEnds[r - 1]) === start) {
      const end = previous.refEnds[r]!
      for (let i = start; i < end; i++) blocks.push(previous.blocks[i]!)
      if (sharing) sharedBlocks = end
    } else {
      sharing = false
      if (r < tools.length) {
        const tool = tools[r]!
        const d = digestBlock(tool, hasher, memo)
        blocks.push({ area: 'tools', index: r, blockIndex: 0, digest: d.digest, tokens: d.tokens, ttl: ttlOf(tool), markable: true })
      } else if (r < firstMessageRef) {
        const i = r - tools.length
        const block = system[i]!
        const d = digestBlock(block, hasher, memo)
        blocks.push({ area: 'system', index: i, blockIndex: 0, digest: d.digest, tokens: d.tokens, ttl: ttlOf(block), markable: isMarkable(block) })
      } else {
        const i = r - firstMessageRef
        const message = request.messages[i]!
        const content = message.content
        const strip = i < strippedBefore && message.role === 'assistant'
        for (let b = 0; b < content.length; b++) {
          const block = content[b]!
          if (strip && isThinking(block)) continue
          const d = digestBlock(block, hasher, memo)
          blocks.push({ area: 'messages', index: i, blockIndex: b, digest: d.digest, tokens: d.tokens, ttl: ttlOf(block), markable: isMarkable(block) })
        }
      }
    }
    refEnds.push(blocks.length)
  }
  if (automatic) applyAutomaticBreakpoint(request, blocks)

  const keys = chainKeys(blocks, salts, hasher, reuse ? previous : null, sharedBlocks)
  const cum: number[] = new Array<number>(blocks.length)
  const breakpoints: number[] = []
  let running = 0
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!
    running += block.tokens
    cum[i] = running
    if (block.ttl !== null) breakpoints.push(i)
  }
  return { model: request.model, blocks, keys, cum, breakpoints, estimatedTotal: running, messageCount: request.messages.length, messageStarts, toolNames, salts, automatic, refs, refEnds, humanTurn, strippedBefore, thinkingStripped: strippedBefore > 0 ? thinkingMessages(request.messages, strippedBefore) : [] }
}

/**
 * §6.3: a top-level `cache_control` puts a breakpoint on the last block that can carry one (a no-op when that block
 * is already marked). The engine's own requests never use it; bodies from elsewhere may.
 */
function applyAutomaticBreakpoint(request: WireRequest, blocks: WalkBlock[]): void {
  const top = (request as unknown as { cache_control?: { type?: unknown; ttl?: unknown } }).cache_control
  if (!top || top.type !== 'ephemeral') return
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!
    if (!block.markable) continue
    if (block.ttl === null) blocks[i] = { ...block, ttl: top.ttl === '1h' ? '1h' : '5m' }
    return
  }
}

function chainKeys(blocks: ReadonlyArray<WalkBlock>, salts: RequestWalk['salts'], hasher: Hasher, previous: RequestWalk | null, known: number): string[] {
  // Keys of the first `known` blocks are the previous walk's (same objects); beyond them, keys are reused as long as
  // the digests match and the salts of the levels crossed are the same.
  let reusable = known
  if (previous && previous.salts.model === salts.model) {
    const systemSame = previous.salts.system === salts.system
    const messagesSame = systemSame && previous.salts.messages === salts.messages
    while (reusable < blocks.length && reusable < previous.blocks.length) {
      const a = blocks[reusable]!
      const b = previous.blocks[reusable]!
      if (a.digest !== b.digest || a.area !== b.area) break
      if (a.area === 'system' && !systemSame) break
      if (a.area === 'messages' && !messagesSame) break
      reusable++
    }
  } else reusable = 0
  const keys: string[] = reusable > 0 ? previous!.keys.slice(0, reusable) : []
  let h = keys.length > 0 ? keys[keys.length - 1]! : hasher.sha256Hex(`loupe-cache|model|${salts.model}`)
  const reachedArea: CacheArea = keys.length > 0 ? blocks[keys.length - 1]!.area : 'tools'
  let systemSalted = reachedArea !== 'tools'
  let messagesSalted = reachedArea === 'messages'
  for (let i = keys.length; i < blocks.length; i++) {
    const block = blocks[i]!
    if (block.area !== 'tools' && !systemSalted) {
      h = hasher.sha256Hex(`${h}|system|${salts.system}`)
      systemSalted = true
    }
    if (block.area === 'messages' && !messagesSalted) {
      h = hasher.sha256Hex(`${h}|messages|${salts.messages}`)
      messagesSalted = true
    }
    h = hasher.sha256Hex(`${h}|${block.digest}`)
    keys.push(h)
  }
  return keys
}
