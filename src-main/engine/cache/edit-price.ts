/**
 * An edit priced before it happens (design.md §3 and §8 "Files"): given a proposed change to an instruction or memory
 * file, the tool set, or the model, which block moves, how many tokens the next pass pays as a write instead of a
 * read, and what that costs — measured against the cache as it stands now (an edit made after the entries expired
 * re-bills nothing they would not have re-billed anyway).
 *
 * Applying a file edit now rewrites the session block (system[1]); deferring it sends a short "file changed" note
 * after the breakpoints and moves nothing. A tool set change moves the very first block; a model switch starts a
 * cold cache for the other model.
 */
import { formatTokens } from './causes'
import type { PassContext } from './context'
import { inputCost, type CachePrices, type ModelLookup } from './pricing'
import type { TokenScale } from './scale'
import type { CacheState, PassCacheFacts } from './state'
import { blockPath, type RequestWalk } from './walk'

export type ProposedEdit =
  | { readonly kind: 'instruction_file' | 'memory_file'; readonly path: string; readonly applyNow: boolean; readonly charsBefore?: number; readonly charsAfter?: number }
  | { readonly kind: 'tools'; readonly added?: ReadonlyArray<string>; readonly removed?: ReadonlyArray<string> }
  | { readonly kind: 'model'; readonly model: string }

export interface EditPrice {
  /** The first block that would change, or null when nothing above the breakpoints moves. */
  readonly movedBlock: { readonly path: string; readonly label: string } | null
  /** Tokens the next pass would write instead of read. */
  readonly rebilledTokens: number
  readonly nextPassUsd: number | null
  readonly withoutEditUsd: number | null
  readonly deltaUsd: number | null
  /** Whether any entry of the last pass is still readable now. */
  readonly cacheWarm: boolean
  readonly label: string
}

export interface PriceEditInput {
  /** The session's latest pass: its request, context, token scale and facts. */
  readonly walk: RequestWalk
  readonly context: PassContext
  readonly scale: TokenScale
  readonly last: PassCacheFacts
  /** The entries as they stand now. */
  readonly state: CacheState
  readonly now: number
  readonly models: ModelLookup
  readonly edit: ProposedEdit
}

/** A deferred edit's note ("[AGENTS.md was changed on disk …]"), in tokens: about 40. */
const CHANGED_NOTE_TOKENS = 40

export function priceEdit(input: PriceEditInput): EditPrice {
  const { walk, context, scale, last, state, now, models, edit } = input
  const fromModel = models(last.model)
  const total = last.totalTokens ?? scale.total()
  const liveTokens = (below: number): number => {
    let best = 0
    for (const p of walk.breakpoints) if (p < below && state.live(walk.keys[p]!, now)) best = Math.max(best, scale.at(p))
    return best
  }
  const readNow = liveTokens(walk.blocks.length)
  const cacheWarm = readNow > 0

  let moved: number | null
  let toModel = fromModel
  let extraTokens = 0
  switch (edit.kind) {
    case 'instruction_file':
    case 'memory_file':
      if (!edit.applyNow) {
        moved = null
        extraTokens = CHANGED_NOTE_TOKENS
      } else {
        const session = context.system.indexOf('session')
        const index = session >= 0 ? session : Math.max(0, walk.blocks.filter((b) => b.area === 'system').length - 1)
        moved = walk.blocks.findIndex((b) => b.area === 'system' && b.index === index)
        extraTokens = Math.round(((edit.charsAfter ?? 0) - (edit.charsBefore ?? 0)) / 4)
      }
      break
    case 'tools': {
      // Tools are sorted by name, so the first block that moves is the first tool at or after the earliest change.
      const names = [...(edit.added ?? []), ...(edit.removed ?? [])].sort()
      const first = names[0]
      const at = first === undefined ? -1 : walk.toolNames.findIndex((n) => n >= first)
      moved = walk.toolNames.length === 0 ? walk.blocks.findIndex((b) => b.area !== 'tools') : at >= 0 ? at : walk.toolNames.length
      break
    }
    case 'model':
      moved = 0
      toModel = models(edit.model)
      break
  }
  if (moved !== null && moved < 0) moved = 0

  const readWith = edit.kind === 'model' ? 0 : moved === null ? readNow : liveTokens(moved)
  const without = nextPassCost(walk, scale, fromModel.prices, readNow, total)
  const withEdit = nextPassCost(walk, scale, toModel.prices, readWith, total + extraTokens)
  const rebilled = Math.max(0, readNow - readWith)
  const movedBlock = moved === null ? null : { path: moved < walk.blocks.length ? blockPath(walk.blocks[moved]!) : 'tools', label: movedLabel(edit, walk, moved) }
  const delta = withEdit !== null && without !== null ? withEdit - without : null
  return {
    movedBlock,
    rebilledTokens: rebilled,
    nextPassUsd: withEdit,
    withoutEditUsd: without,
    deltaUsd: delta,
    cacheWarm,
    label: editLabel(edit, movedBlock, rebilled, delta, cacheWarm),
  }
}

/**
 * The input side of the next pass: `read` tokens from the cache, the rest of the last request written again at its
 * breakpoints' TTLs (1h up to the highest 1h breakpoint, 5m after), the new tail left out (it costs the same either
 * way).
 */
function nextPassCost(walk: RequestWalk, scale: TokenScale, prices: CachePrices | null, read: number, total: number): number | null {
  if (!prices) return null
  let oneHour = read
  for (const p of walk.breakpoints) if (walk.blocks[p]!.ttl === '1h') oneHour = Math.max(oneHour, Math.min(scale.at(p), total))
  return inputCost({ read, write1h: oneHour - read, write5m: Math.max(0, total - oneHour), uncached: 0, total }, prices)
}

function movedLabel(edit: ProposedEdit, walk: RequestWalk, moved: number): string {
  switch (edit.kind) {
    case 'instruction_file':
    case 'memory_file':
      return `${blockPath(walk.blocks[moved]!)} · session block (${edit.kind === 'memory_file' ? 'memory' : 'project instructions'} · ${edit.path})`
    case 'tools':
      return 'tools · the tool list'
    case 'model':
      return `everything: the cache is per model (${edit.model})`
  }
}

function editLabel(edit: ProposedEdit, moved: EditPrice['movedBlock'], rebilled: number, delta: number | null, warm: boolean): string {
  const usd = delta === null ? '' : ` (${delta >= 0 ? '+' : '−'}$${Math.abs(delta).toFixed(4)})`
  if (!moved) return `nothing above the breakpoints moves: a short note travels with the next message${usd}`
  if (!warm) return `moves ${moved.path}, but the cache has already expired: the next pass re-bills its prefix either way${usd}`
  return `moves ${moved.path}: the next pass re-bills ≈${formatTokens(rebilled)} tokens${usd}`
}

