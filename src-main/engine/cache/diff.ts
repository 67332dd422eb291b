/**
 * Two requests compared in cache order: where the current one first differs from the previous one (the cache's
 * story), what changed in the tool list, and the answer the API's own cache diagnostics would give (the first
 * divergence in their order: model, system, tools, messages; docs/reference/anthropic-api.md §6).
 */
import type { RequestWalk } from './walk'

export interface Divergence {
  readonly position: number
  /**
   * `block`: a block's bytes; `settings`: a request setting that salts a level (§5.3) — `speed` the system level
   * (`level: 'system'`), tool_choice, thinking, effort or images the messages level.
   */
  readonly reason: 'block' | 'settings'
  readonly level?: 'system' | 'messages'
}

/**
 * The first position where `current` differs from `previous`, model aside (a model switch is told apart by the
 * caller). Null when every block of `current` that `previous` also had is the same.
 */
export function contentDivergence(previous: RequestWalk, current: RequestWalk): Divergence | null {
  const n = Math.min(previous.blocks.length, current.blocks.length)
  const systemSame = previous.salts.system === current.salts.system
  const messagesSame = previous.salts.messages === current.salts.messages
  // The first block a changed setting re-keys: the system salt goes in before the first block after the tools.
  const settingAt = (b: RequestWalk['blocks'][number]): Divergence['level'] | null =>
    b.area !== 'tools' && !systemSame ? 'system' : b.area === 'messages' && !messagesSame ? 'messages' : null
  for (let i = 0; i < n; i++) {
    const a = previous.blocks[i]!
    const b = current.blocks[i]!
    const level = settingAt(b)
    if (level) return { position: i, reason: 'settings', level }
    if (a.area !== b.area || a.index !== b.index || a.blockIndex !== b.blockIndex || a.digest !== b.digest) return { position: i, reason: 'block' }
  }
  const next = current.blocks[n]
  const level = next ? settingAt(next) : null
  if (level && previous.blocks.every((b) => (level === 'system' ? b.area === 'tools' : b.area !== 'messages'))) return { position: n, reason: 'settings', level }
  return null
}

export interface ToolChanges {
  readonly added: ReadonlyArray<string>
  readonly removed: ReadonlyArray<string>
  readonly changed: ReadonlyArray<string>
}

export function toolChanges(previous: RequestWalk, current: RequestWalk): ToolChanges {
  const digests = (w: RequestWalk): Map<string, string> => {
    const m = new Map<string, string>()
    w.toolNames.forEach((name, i) => m.set(name, w.blocks[i]!.digest))
    return m
  }
  const before = digests(previous)
  const after = digests(current)
  return {
    added: [...after.keys()].filter((n) => !before.has(n)),
    removed: [...before.keys()].filter((n) => !after.has(n)),
    changed: [...after].filter(([n, d]) => before.has(n) && before.get(n) !== d).map(([n]) => n),
  }
}

/** The API's diagnostic vocabulary; `settings_changed` stands for its `unavailable` (config differs). */
export type ApiDivergence = 'model_changed' | 'system_changed' | 'tools_changed' | 'messages_changed' | 'settings_changed'

/** Whether the blocks of `area` have the same digests in both walks (`prefixOnly`: `a`'s are a prefix of `b`'s). */
function sameArea(a: RequestWalk, b: RequestWalk, area: 'tools' | 'system' | 'messages', prefixOnly = false): boolean {
  const range = (w: RequestWalk): [number, number] => {
    let start = 0
    while (start < w.blocks.length && w.blocks[start]!.area !== area) start++
    let end = start
    while (end < w.blocks.length && w.blocks[end]!.area === area) end++
    return [start, end]
  }
  const [as, ae] = range(a)
  const [bs, be] = range(b)
  if (prefixOnly ? ae - as > be - bs : ae - as !== be - bs) return false
  for (let i = 0; i < ae - as; i++) if (a.blocks[as + i]!.digest !== b.blocks[bs + i]!.digest) return false
  return true
}

/** What the API's cache diagnostics should say for `current` against `previous`; null for no divergence. */
export function apiDivergence(previous: RequestWalk, current: RequestWalk): ApiDivergence | null {
  // The SDK documents model_changed as "model or speed differs"; speed is the system salt.
  if (previous.salts.model !== current.salts.model || previous.salts.system !== current.salts.system) return 'model_changed'
  if (!sameArea(previous, current, 'system')) return 'system_changed'
  if (!sameArea(previous, current, 'tools')) return 'tools_changed'
  if (previous.salts.messages !== current.salts.messages) return 'settings_changed'
  // Messages may only have been appended to.
  if (!sameArea(previous, current, 'messages', true)) return 'messages_changed'
  return null
}
