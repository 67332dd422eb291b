/**
 * Test helpers that read a request the way the prompt cache does (docs/reference/anthropic-api.md §6.1): blocks in
 * cache order, each without its cache_control, and the position of the last breakpoint.
 */
import type { WireRequest } from '../../../src-main/engine/model/wire'

export interface CacheView {
  /** Canonical JSON of each block without cache_control, in cache order (tools, system, message blocks). */
  readonly blocks: string[]
  /** Positions in `blocks` that carry a breakpoint. */
  readonly breakpoints: number[]
}

function strip(block: object): string {
  const { cache_control: _drop, ...rest } = block as { cache_control?: unknown }
  return JSON.stringify(rest)
}

export function cacheView(request: WireRequest): CacheView {
  const blocks: string[] = []
  const breakpoints: number[] = []
  const add = (block: object, prefix: string): void => {
    if ('cache_control' in block && (block as { cache_control?: unknown }).cache_control !== undefined) breakpoints.push(blocks.length)
    blocks.push(prefix + strip(block))
  }
  for (const tool of request.tools ?? []) add(tool, 'tool:')
  for (const block of request.system ?? []) add(block, 'system:')
  request.messages.forEach((message, i) => {
    for (const block of message.content) add(block, `${i}:${message.role}:`)
  })
  return { blocks, breakpoints }
}
