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
  if (change.kind === 'model') return 'The model changed: this is where the cache stopped'
  const what = WHAT[change.change]
  const a = readAttribution(attribution)
  let cache: string | null
  if (a?.noResponse) cache = 'this request got no response, so it read nothing'
  else if (a?.outcome === 'full') cache = change.change === 'added' || change.change === 'changed' ? null : 'everything before it was read from the cache'
  else if (a?.outcome === 'miss') cache = 'nothing was read from the cache'
  else cache = 'this is where the cache stopped'
  return `▼ ${change.path}: ${what}${cache ? `; ${cache}` : ''}`
}
