/**
 * The checks every plan passes before it leaves the builder. A failure is a programmer error (PlanError), never a
 * problem with the user's files.
 */
import type { PromptPlan } from './plan'
import { PlanError } from './errors'

/** The API accepts at most four breakpoints per request (docs/reference/anthropic-api.md §5.1). */
export const MAX_BREAKPOINTS = 4

/**
 * Throws when the plan has more than four breakpoints, a 1h breakpoint after a 5m one, or a `volatile` block at or
 * above any breakpoint (design.md §3: a volatile section must never sit above a breakpoint).
 */
export function validatePlan(plan: PromptPlan): void {
  if (plan.breakpoints.length > MAX_BREAKPOINTS) {
    throw new PlanError('too_many_breakpoints', `${plan.breakpoints.length} breakpoints; the API accepts ${MAX_BREAKPOINTS}`)
  }
  let seen5m = false
  for (const bp of plan.breakpoints) {
    if (bp.ttl === '5m') seen5m = true
    else if (seen5m) throw new PlanError('ttl_order', `the ${bp.tag} breakpoint has a 1h TTL after a 5m one`)
  }
  // Walk the blocks in cache order; a volatile block is legal only after the last breakpoint.
  let lastBreakpoint = -1
  let firstVolatile = -1
  let volatileName = ''
  let position = 0
  const visit = (info: { stability: string; breakpoint: unknown; provenance: { kind: string } }, name: string): void => {
    if (info.breakpoint !== null) lastBreakpoint = position
    if (info.stability === 'volatile' && firstVolatile < 0) {
      firstVolatile = position
      volatileName = name
    }
    position++
  }
  for (const tool of plan.tools) visit(tool, `tool ${tool.wire.name}`)
  for (const block of plan.system) visit(block, 'a system block')
  for (const message of plan.messages) {
    for (const info of message.blocks) {
      visit(info, info.provenance.kind === 'section' ? `section ${info.provenance.section}` : 'a message block')
    }
  }
  if (firstVolatile >= 0 && firstVolatile <= lastBreakpoint) {
    throw new PlanError('volatile_above_breakpoint', `${volatileName} is volatile and sits above a breakpoint`)
  }
}
