import type { LiveCompaction } from '../../../state/compaction'
import { useElapsed } from '../../palette/use-slow'

const STAGES: Readonly<Record<string, string>> = {
  started: 'starting',
  trimmed: 'stage 1: old tool results trimmed',
  summary_started: 'stage 2: asking for the summary',
  summary_streaming: 'stage 2: the summary is being written',
  summary_finished: 'stage 2: summary received, writing the checkpoint',
  extension_failed: 'the project compactor failed; using the default',
}

/** The compaction in flight: its stage, how much of the summary has arrived, how long it has run; Esc cancels it. */
export function LiveProgress({ live, onCancel }: { live: LiveCompaction; onCancel(): void }) {
  const elapsed = useElapsed(live.startedAt)
  return (
    <div className="progress-line" role="status" data-testid="compaction-progress" data-stage={live.stage}>
      <span className="spinner" aria-hidden />
      <span>
        {live.dryRun ? 'Dry run' : 'Compacting'} ({live.trigger}
        {live.focus ? `, focus “${live.focus}”` : ''}) · {STAGES[live.stage] ?? live.stage}
        {live.trimmed !== null && ` · ${live.trimmed} trimmed (≈${(live.savedTokens ?? 0).toLocaleString('en-US')} tokens saved)`}
        {live.outputChars > 0 && ` · ≈${Math.round(live.outputChars / 4).toLocaleString('en-US')} tokens of summary so far`} · {elapsed} s
      </span>
      <span className="topbar-spacer" />
      <button type="button" className="stop" onClick={onCancel}>
        Cancel (Esc)
      </button>
    </div>
  )
}
