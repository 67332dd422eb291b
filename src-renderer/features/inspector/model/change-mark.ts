/**
 * The words on the diff's mark at the first changed block: what happened to the block (new, changed, no longer sent)
 * and what that meant for the cache, from the pass's attribution. On a full hit the read went up to the change, so a
 * new or changed block is simply what differs; on a pass that read nothing the change stopped nothing; otherwise it
 * is where the read stopped.
 */
import { readAttribution } from './attribution'
import type { FirstChange } from './first-change'

type BlockChange = Extract<FirstChange, { kind: 'block' }>['change']

const WHAT: Readonly<Record<BlockChange, string>> = {
  added: 'new since the pass before',
  changed: 'changed since the pass before',
  // A removed block is marked on the earlier pass's side: it is not in this one.
  removed: 'not sent in this pass',
  settings: 'tool_choice or thinking changed before it',
}

export function changeMarkText(change: FirstChange, attribution: unknown): string | null {
  if (change.kind === 'identical') return null
  const a = readAttribution(attribution)
  // Nothing the earlier pass left can be read on another model; a pass that read all the same (a switch back) read what
  // its own model kept from its earlier passes, so the cache did not stop at the top.
  if (change.kind === 'model')
    return a?.outcome === 'full' || a?.outcome === 'partial' ? 'The model changed: nothing the pass before left cached is read; what this pass read, its model kept from its own earlier passes' : 'The model changed: this is where the cache stopped'
  const what = WHAT[change.change]
  let cache: string | null
  if (a?.noResponse) cache = 'this request got no response, so it read nothing'
  else if (a?.outcome === 'full') cache = change.change === 'added' || change.change === 'changed' ? null : 'everything before it was read from the cache'
  else if (a?.outcome === 'miss') cache = 'nothing was read from the cache'
  else cache = 'this is where the cache stopped'
  return `▼ ${change.path}: ${what}${cache ? `; ${cache}` : ''}`
}
