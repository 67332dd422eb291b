/**
 * One compaction as a card: how it was triggered, its focus, tokens before → after, what it cost, what stage 1
 * trimmed, what was offered again, and whether the pins survived.
 */
import { clock, tokens as k, usd } from '../../../ui/format'
import type { CardFacts } from '../model/card-facts'
import { sizesExplained } from '../model/sizes'

const time = (at: number) => clock(at).slice(0, 5)

export function CheckpointCard({ facts, at, selected, draft, onSelect }: { facts: CardFacts; at: number | null; selected: boolean; draft: boolean; onSelect(): void }) {
  return (
    <button type="button" className={`cmp-card${selected ? ' selected' : ''}${draft ? ' draft' : ''}`} onClick={onSelect} aria-pressed={selected} data-testid={draft ? 'draft-card' : 'checkpoint-card'}>
      <div className="cmp-card-head">
        <span className={`chip ${draft ? 'accent' : facts.trigger === 'auto' ? 'warn' : ''}`}>{draft ? 'dry run' : facts.trigger}</span>
        <span className="chip">{facts.stage === 'trim' ? 'stage 1 only' : 'summary'}</span>
        {facts.edited && <span className="chip accent">summary edited</span>}
        {facts.stale && <span className="chip warn">out of date</span>}
        <span className="topbar-spacer" />
        {at !== null && <span className="muted small">{time(at)}</span>}
      </div>
      <div className="cmp-card-tokens" title={sizesExplained(facts.sizes, draft, draft && facts.edited)} data-testid="card-sizes">
        <span className="muted">context</span> {facts.sizes.before.measured ? '' : '≈'}
        {k(facts.sizes.before.tokens)} → {facts.sizes.after.measured ? '' : '≈'}
        {k(facts.sizes.after.tokens)} tokens <span className="muted">· {usd(facts.costUsd)}</span>
      </div>
      {facts.focus && <div className="cmp-card-focus">focus: “<bdi>{facts.focus}</bdi>”</div>}
      <div className="cmp-card-meta muted small">
        {facts.trims > 0 ? `${facts.trims} tool result${facts.trims === 1 ? '' : 's'} trimmed (${k(facts.trimmedChars)} chars)` : 'nothing trimmed'}
        {facts.files > 0 && ` · ${facts.files} file${facts.files === 1 ? '' : 's'} offered again`}
        {facts.pins.length > 0 && ` · pins: ${pinCounts(facts.pins)}`}
      </div>
    </button>
  )
}

/** The pins' fates in the words the details use: "1 kept, 1 in the summary, 2 reinjected, 1 lost". */
const PIN_WORDS: Readonly<Record<string, string>> = { kept: 'kept', in_summary: 'in the summary', reinjected: 'reinjected', lost: 'lost' }
function pinCounts(pins: ReadonlyArray<{ status: string }>): string {
  const counts = new Map<string, number>()
  for (const p of pins) counts.set(p.status, (counts.get(p.status) ?? 0) + 1)
  return [...counts].map(([status, n]) => `${n} ${PIN_WORDS[status] ?? status.replace(/_/g, ' ')}`).join(', ')
}
