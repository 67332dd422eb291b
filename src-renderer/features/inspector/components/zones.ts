/**
 * The DOM of the request view's view zones: a header above each block (its provenance, files and tokens) and a
 * rule below each cache breakpoint (its name, TTL and what the API did there). Monaco places these nodes itself,
 * so they are built directly, not with React.
 */
import type { BlockInfo } from '../model/blocks'
import type { BreakpointMark, BreakpointOutcome } from '../model/breakpoints'
import { tokens } from '../../../ui/format'

export type Shade = 'cached' | 'paid' | 'unknown'

/** Monaco sets `display` on a zone's own node as it shows and hides it, so the styled content goes one level in. */
function zone(content: HTMLElement): HTMLElement {
  const outer = document.createElement('div')
  outer.append(content)
  return outer
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

/**
 * A block's header: its path, tokens and cached/paid tag, the file links (only where there are files), and its
 * provenance label. The caller puts it in the zone's node when Monaco first shows the zone (RequestEditor).
 */
export function blockHeader(block: BlockInfo, shade: Shade, onFile: (path: string) => void): HTMLElement {
  const root = el('div', `insp-zone-head ${shade}`)
  root.dataset.block = block.path
  root.title = block.detail
  const entry = block.entryIds.length === 0 ? '' : block.entryIds.length === 1 ? `  ${block.entryIds[0]}` : `  ${block.entryIds[0]} +${block.entryIds.length - 1}`
  // The token count and the cached/paid tag come first: the minimap covers the right end of a zone.
  root.append(el('b', 'insp-zone-path', block.path), el('span', 'insp-zone-tok', `≈${tokens(block.tokens)} tok${shade === 'cached' ? ' · from cache' : shade === 'paid' ? ' · paid' : ''}`))
  for (const file of block.files) {
    const link = el('button', 'insp-file-link', file)
    link.type = 'button'
    link.title = `Open ${file} in the Files view`
    link.addEventListener('mousedown', (e) => e.stopPropagation())
    link.addEventListener('click', (e) => {
      e.stopPropagation()
      onFile(file)
    })
    root.append(link)
  }
  root.append(el('span', 'insp-zone-label', `${block.label}${entry}`))
  return root
}

const OUTCOME_TEXT: Readonly<Record<BreakpointOutcome, string>> = {
  read: 'read from cache',
  written: 'written to cache',
  missed: 'missed: not read, not written',
  unknown: 'no usage: the API did not answer',
  no_response: 'no response: the request read and wrote nothing',
  too_short: "too short to cache: the prefix up to here is under the model's minimum, so no entry is read or written",
  nothing_to_read: 'nothing to read: no entry here, and none written; nothing lost',
}

export function breakpointRule(mark: BreakpointMark<{ blockPath: string | null; path: string; ttl: '5m' | '1h'; endLine: number }>, isLastRead: boolean): HTMLElement {
  const root = el('div', `insp-bp ${mark.outcome}`)
  root.dataset.afterLine = String(mark.marker.endLine)
  root.dataset.tag = mark.tag ?? ''
  root.dataset.outcome = mark.outcome
  root.setAttribute('role', 'separator')
  root.setAttribute('aria-label', `${mark.label}: ${OUTCOME_TEXT[mark.outcome]}`)
  // The cache reads tools before the system prompt, while the request shows the system first: a system breakpoint's
  // prefix holds the tools printed below it.
  const upTo = mark.marker.path.startsWith('system') ? 'tokens up to here, tools included' : 'tokens up to here'
  root.append(el('span', 'insp-bp-name', mark.label), el('span', 'insp-bp-what', OUTCOME_TEXT[mark.outcome]), el('span', 'insp-bp-tok', `≈${tokens(mark.prefixTokens)} ${upTo}`))
  if (isLastRead) root.append(el('span', 'insp-bp-split', '▲ from cache · paid ▼'))
  return zone(root)
}

/**
 * Where a read ended when no breakpoint of this request is there: an entry an earlier request wrote, found by the
 * lookback (a retry after a pass that got no response, the pass after a pre-warm).
 */
export function readSplitRule(): HTMLElement {
  const root = el('div', 'insp-read-split')
  root.setAttribute('role', 'separator')
  root.setAttribute('aria-label', 'The read from cache ended here, at an entry an earlier request wrote')
  root.append(el('span', 'insp-bp-what', 'read ended here: an entry an earlier request wrote'), el('span', 'insp-bp-split', '▲ from cache · paid ▼'))
  return zone(root)
}

export function changeLabel(text: string): HTMLElement {
  const root = el('div', 'insp-diff-mark', text)
  root.setAttribute('role', 'note')
  return zone(root)
}
