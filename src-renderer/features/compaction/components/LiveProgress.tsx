import { useLayoutEffect, useRef } from 'react'
import type { LiveCompaction } from '../../../state/compaction'
import { useElapsed } from '../../palette/use-slow'
import { grouped, oneLine } from '../../../ui/format'
import { estimateTokensFromChars } from '../../../ui/estimate'

const STAGES: Readonly<Record<string, string>> = {
  started: 'starting',
  trimmed: 'stage 1: old tool results trimmed',
  summary_started: 'stage 2: asking for the summary',
  summary_streaming: 'stage 2: the summary is being written',
  summary_finished: 'stage 2: summary received, writing the checkpoint',
  extension_failed: 'the project compactor failed; using the default',
}

/** A focus as the progress line quotes it: one line, its start (a 4,000-character focus would push Cancel off the view). */
export function shortFocus(focus: string, max = 80): string {
  return oneLine(focus, max)
}

/**
 * The compaction in flight: its stage, the summary as it forms (the newest part, scrolled to the end unless the
 * user scrolled up to read), its tokens so far, how long it has run; Cancel (or Esc) stops it.
 */
export function LiveProgress({ live, onCancel }: { live: LiveCompaction; onCancel(): void }) {
  const elapsed = useElapsed(live.startedAt)
  const tokens = live.outputTokens > 0 ? live.outputTokens : estimateTokensFromChars(live.outputChars)
  return (
    <section className="cmp-live" aria-label="Compaction in progress" data-testid="compaction-progress" data-stage={live.stage}>
      <div className="progress-line">
        <span className="spinner" aria-hidden />
        {/* The stage alone is the live region: the figures tick every second and Cancel is a control, and inside it a
            screen reader would read them out at every tick ("· 0 sCancel (Esc)"). */}
        <span role="status">
          {live.dryRun ? 'Dry run' : 'Compacting'} ({live.trigger}
          {live.focus ? (
            <>
              , focus “<bdi className="cmp-live-focus" title={live.focus} data-testid="compaction-progress-focus">{shortFocus(live.focus)}</bdi>”
            </>
          ) : (
            ''
          )}
          ) · {live.stage === 'summary_streaming' && live.outputChars === 0 && live.thinkingChars > 0 ? 'stage 2: the model is thinking' : (STAGES[live.stage] ?? live.stage)}
          {live.trimmed !== null && ` · ${live.trimmed} tool result${live.trimmed === 1 ? '' : 's'} trimmed (≈${grouped(live.savedTokens ?? 0)} tokens saved)`}
        </span>
        <span className="topbar-spacer" />
        <span className="cmp-live-figures" data-testid="compaction-progress-figures">
          <span data-testid="compaction-progress-tokens" data-tokens={tokens}>
            ≈{grouped(tokens)} tokens of summary
          </span>{' '}
          · <span data-testid="compaction-progress-elapsed">{elapsed} s</span>
        </span>
        <button type="button" className="stop" onClick={onCancel}>
          Cancel (Esc)
        </button>
      </div>
      {(live.text !== '' || live.stage === 'summary_started' || live.stage === 'summary_streaming') && <FormingSummary text={live.text} hidden={live.textHidden} thinkingChars={live.thinkingChars} />}
    </section>
  )
}

/**
 * The summary text so far, monospace, following its end while the user has not scrolled up. Before the first words,
 * a thinking model's thinking is counted here, so a long think does not look like a stall.
 */
function FormingSummary({ text, hidden, thinkingChars }: { text: string; hidden: number; thinkingChars: number }) {
  const ref = useRef<HTMLPreElement>(null)
  const following = useRef(true)
  useLayoutEffect(() => {
    const el = ref.current
    if (el && following.current) el.scrollTop = el.scrollHeight
  }, [text])
  return (
    <pre
      ref={ref}
      className="cmp-live-text"
      data-testid="compaction-live-text"
      aria-label="The summary as it is written"
      aria-live="off"
      onScroll={(e) => {
        const el = e.currentTarget
        following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24
      }}
    >
      {hidden > 0 && <span className="muted">{`[… ${grouped(hidden)} characters not shown]\n`}</span>}
      {text !== '' ? (
        text
      ) : thinkingChars > 0 ? (
        <span className="muted" data-testid="compaction-live-thinking">{`The model is thinking before it writes (≈${grouped(Math.ceil(thinkingChars / 4))} tokens so far)…`}</span>
      ) : (
        <span className="muted">Waiting for the first words of the summary…</span>
      )}
      <span className="cmp-live-caret" aria-hidden />
    </pre>
  )
}
