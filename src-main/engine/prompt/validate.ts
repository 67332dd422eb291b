/**
 * The checks every plan passes before it leaves the builder. A failure is a programmer error (PlanError), never a
 * problem with the user's files.
 */
import type { BreakpointPlacement, PromptPlan } from './plan'
import { PlanError } from './errors'

/** The API accepts at most four breakpoints per request (docs/reference/anthropic-api.md §5.1). */
export const MAX_BREAKPOINTS = 4

/** A block's place in cache order: area (0 tools, 1 system, 2 messages), index, block index. */
type Position = readonly [number, number, number]

function before(a: Position, b: Position): boolean {
  for (let i = 0; i < 3; i++) if (a[i]! !== b[i]!) return a[i]! < b[i]!
  return false
}

function positionOf(bp: BreakpointPlacement): Position {
  return [bp.area === 'system' ? 1 : 2, bp.index, bp.blockIndex]
}

export interface ValidateOptions {
  /**
   * Messages before this index are known to hold no volatile block (the builder renders history messages once and
   * never marks them volatile), so the walk starts here. 0, the default, checks every block.
   */
  readonly fromMessage?: number
}

/**
 * Throws when the plan has more than four breakpoints, a 1h breakpoint after a 5m one, or a `volatile` block at or
 * above any breakpoint (docs/design.md §3: a volatile section must never sit above a breakpoint).
 */
export function validatePlan(plan: PromptPlan, options: ValidateOptions = {}): void {
  if (plan.breakpoints.length > MAX_BREAKPOINTS) {
    throw new PlanError('too_many_breakpoints', `${plan.breakpoints.length} breakpoints; the API accepts ${MAX_BREAKPOINTS}`)
  }
  let seen5m = false
  let last: Position | null = null
  for (const bp of plan.breakpoints) {
    if (bp.ttl === '5m') seen5m = true
    else if (seen5m) throw new PlanError('ttl_order', `the ${bp.tag} breakpoint has a 1h TTL after a 5m one`)
    const at = positionOf(bp)
    if (last === null || before(last, at)) last = at
  }
  if (last === null) return
  const check = (at: Position, what: string): void => {
    if (!before(last!, at)) throw new PlanError('volatile_above_breakpoint', `${what} is volatile and sits above a breakpoint`)
  }
  plan.tools.forEach((tool, i) => tool.stability === 'volatile' && check([0, i, 0], `tool ${tool.wire.name}`))
  plan.system.forEach((block, i) => block.stability === 'volatile' && check([1, i, 0], 'a system block'))
  for (let i = options.fromMessage ?? 0; i < plan.messages.length; i++) {
    const blocks = plan.messages[i]!.blocks
    for (let b = 0; b < blocks.length; b++) {
      const info = blocks[b]!
      if (info.stability !== 'volatile') continue
      check([2, i, b], info.provenance.kind === 'section' ? `section ${info.provenance.section}` : 'a message block')
    }
  }
}
