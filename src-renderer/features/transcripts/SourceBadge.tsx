/**
 * Where a pass's request body came from, for the inspector (PassSummary `source`, src-main/node/store/passes.ts):
 * a reconstructed pass from a Claude Code transcript is not wire bytes and must say so wherever it is shown; a
 * captured pass is another agent's exact bytes. Loupe's own passes show nothing.
 */
import './transcripts.css'

export type PassSource = 'loupe' | 'transcript' | 'proxy'

const RECONSTRUCTED = 'Reconstructed from a Claude Code transcript, not wire bytes: the system prompt, tools and injected reminders were never recorded.'
const CAPTURED = "Captured by the proxy from another agent: its exact wire bytes. Blocks are labelled by position and kind (their provenance is the agent's own)."

/** A small tag for a row of the passes list, in place of the pass kind (named in its tooltip). */
export function PassSourceBadge({ source, kind }: { source: PassSource | undefined; kind?: string }) {
  const of = kind === undefined ? '' : ` Pass kind: ${kind}.`
  if (source === 'transcript') return <span className="pass-source transcript" title={RECONSTRUCTED + of} aria-label="reconstructed" data-testid="reconstructed-badge">recon</span>
  if (source === 'proxy') return <span className="pass-source proxy" title={CAPTURED + of} aria-label="captured" data-testid="captured-badge">proxy</span>
  return null
}

/** A line above the request view. */
export function PassSourceBanner({ source }: { source: PassSource | undefined }) {
  if (source === 'transcript') return <div className="pass-source-banner transcript" role="note" data-testid="reconstructed-banner">{RECONSTRUCTED} The sha256 is that of this reconstruction.</div>
  if (source === 'proxy') return <div className="pass-source-banner proxy" role="note">{CAPTURED}</div>
  return null
}
