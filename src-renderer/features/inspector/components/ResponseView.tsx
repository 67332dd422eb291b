/**
 * The response view: what came back, as received (the SSE events or the JSON body), the final message it built,
 * the usage and cost, the request-id, and every attempt with its error. For the pass in flight, the text as it
 * streams.
 */
import { useMemo } from 'react'
import type { Monaco } from '../../../monaco'
import type { PassView } from '../data/pass-view'
import { clock, grouped, ms, tokens, usd } from '../../../ui/format'
import { liveRequestText, type LivePass, type LiveSummary } from '../model/live'
import { attemptFailed, earlierBilled, earlierBilledText } from '../model/attempts'
import { diagnosisOf } from '../model/diagnosis'
import { ModelName } from './ModelName'
import { outputTokensText, parseResponse, type FinalBlock } from '../model/response'
import { CodeView } from './CodeView'

/** A string field the contract passes through untyped (`messageId`, `stopReason`). */
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)

export function ResponseView({ monaco, view }: { monaco: Monaco; view: PassView }) {
  const { detail } = view
  const parsed = useMemo(() => parseResponse(detail.responseRaw), [detail.responseRaw])
  const u = detail.usage
  const message = parsed.message
  const diagnosis = useMemo(() => diagnosisOf(detail.attribution), [detail.attribution])
  // The pass's cost counts every attempt billed; one that broke after its 200 and was sent again is named here.
  const earlier = earlierBilled(detail.attempts)
  const earlierBill = (i: number) => i < detail.attempts.length - 1 && Boolean(detail.attempts[i]!.usage)
  const saysMore = detail.attempts.some((a, i) => a.error || earlierBill(i))
  return (
    <div className="insp-response" data-testid="response-view">
      <dl className="insp-facts">
        <dt>status</dt>
        <dd className={detail.status === 'done' ? '' : 'bad'}>{detail.status}{detail.error ? ` · ${detail.error.kind}: ${detail.error.message}` : ''}</dd>
        <dt>request-id</dt>
        <dd>
          <code>{detail.attempts.at(-1)?.requestId ?? '—'}</code>
        </dd>
        <dt>message</dt>
        <dd>
          <code>{message?.id ?? text(detail.messageId) ?? '—'}</code> · stop: {message?.stopReason ?? text(detail.stopReason) ?? '—'}
        </dd>
        <dt>usage</dt>
        <dd>
          {u
            ? `cache read ${tokens(u.cache_read_input_tokens)} · cache write ${tokens(u.cache_creation_input_tokens)} · uncached ${tokens(u.input_tokens)} · output ${outputTokensText(detail.status, u.output_tokens, tokens)} · ${usd(detail.costUsd)}`
            : earlier
              ? `none (no answer) · ${usd(detail.costUsd)}`
              : 'none (no answer)'}
          {earlier && (
            <span data-testid="earlier-billed">
              {' '}
              ({earlierBilledText(earlier, usd)})
            </span>
          )}
        </dd>
        {diagnosis && (
          <>
            <dt title="the service's own cache diagnostics (cache_miss_reason) for this response, beside what Loupe's comparison with the previous pass says they should be">cache diagnosis</dt>
            <dd data-testid="cache-diagnosis" data-agree={diagnosis.agree === null ? 'none' : String(diagnosis.agree)}>
              service: {diagnosis.api} · Loupe: {diagnosis.ours}
              {diagnosis.agree === true && <span className="muted"> (they agree)</span>}
              {diagnosis.agree === false && <span className="bad"> (they disagree: the app's bug or the provider's)</span>}
            </dd>
          </>
        )}
        <dt>timing</dt>
        <dd>
          queued {clock(detail.queuedAt)} · first byte {ms(detail.firstByteAt !== null ? detail.firstByteAt - detail.queuedAt : null)} · done{' '}
          {ms(detail.doneAt !== null ? detail.doneAt - detail.queuedAt : null)} <span className="muted">(from queueing, as in the passes list)</span>
        </dd>
      </dl>
      {detail.attempts.length > 0 && (
        <table className="insp-attempts-table">
          <caption>
            Attempts <span className="muted">(started: from queueing; first byte and took: from the attempt's start)</span>
          </caption>
          <thead>
            <tr>
              <th>#</th>
              <th>status</th>
              <th>started</th>
              <th>first byte</th>
              <th>took</th>
              <th>request-id</th>
              {/* Without an error or an earlier bill to say, the column is left out: a narrow pane keeps its room. */}
              {saysMore && <th>error</th>}
            </tr>
          </thead>
          <tbody>
            {detail.attempts.map((a, i) => (
              <tr key={i} className={attemptFailed(a) ? 'bad' : ''}>
                <td>{i + 1}</td>
                <td>{a.status ?? '—'}</td>
                <td className="num">+{ms(a.startedAt - detail.queuedAt)}</td>
                <td className="num">{ms(a.firstByteAt !== null ? a.firstByteAt - a.startedAt : null)}</td>
                <td className="num">{ms(a.endedAt - a.startedAt)}</td>
                <td>
                  <code>{a.requestId ?? '—'}</code>
                </td>
                {saysMore && (
                  <td>
                    {a.error ? `${a.error.kind}: ${a.error.message}` : ''}
                    {/* An earlier attempt the service billed (a stream that broke after its 200): what, in the cell that says why it ended. */}
                    {earlierBill(i) ? ` · billed ${usd(a.costUsd ?? null)} for its prompt and what it streamed` : ''}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {parsed.error && (
        <p className="bad">
          {/* A recorded pass that failed to connect has a body only if the capture proxy wrote it: the API sent nothing. */}
          {detail.error?.kind === 'connection' ? 'The capture proxy answered for the API, which it could not reach' : 'The API sent an error'}: {parsed.error.type}:{' '}
          {parsed.error.message}
        </p>
      )}
      {message && (
        <section className="insp-final" aria-label="Final message">
          <h3>Final message</h3>
          {message.content.map((b, i) => (
            <FinalBlockView key={i} block={b} />
          ))}
        </section>
      )}
      <h3 className="insp-raw-title">
        As received ({parsed.format === 'sse' ? `${parsed.eventCount} server-sent events` : parsed.format})
      </h3>
      {detail.responseRaw ? <CodeView monaco={monaco} text={detail.responseRaw} language={parsed.format === 'json' ? 'json' : 'plaintext'} label="Raw response" /> : <p className="muted">No response was recorded.</p>}
    </div>
  )
}

function FinalBlockView({ block }: { block: FinalBlock }) {
  switch (block.type) {
    case 'text':
      return <pre className="insp-final-text">{block.text}</pre>
    case 'thinking':
      return <pre className="insp-final-text thinking">{block.text}</pre>
    case 'tool_use':
      return (
        <pre className="insp-final-text tool">
          {block.name}({block.input}) <span className="muted">{block.id}</span>
        </pre>
      )
    case 'other':
      return <p className="muted">[{block.kind} block]</p>
  }
}

/** The Request tab of the pass in flight: only the note, as its bytes come from the store (the response is under Response). */
export function LiveRequestNote({ live }: { live: LivePass }) {
  return (
    <p className="insp-empty" data-testid="live-request">
      {liveRequestText(live)}
    </p>
  )
}

export function LiveResponseView({ live }: { live: LivePass }) {
  if (live.summary) return <LiveSummaryView live={live} summary={live.summary} />
  return (
    <div className="insp-response" data-testid="live-response">
      <p className="muted">
        Pass {live.passNumber} of this turn · <ModelName id={live.model} /> · sent {clock(live.startedAt)}
        {live.firstDeltaAt !== null ? ` · first byte after ${ms(live.firstDeltaAt - live.startedAt)}` : ' · waiting for the first byte'}. Streaming: the raw
        response, its usage and its attempts are shown once the pass is stored.
      </p>
      {live.retry && (
        <p className="bad" data-testid="live-retry">
          {live.retry}
        </p>
      )}
      {live.messageId && (
        <p>
          message <code>{live.messageId}</code>
        </p>
      )}
      {live.blocks.map((b, i) => (
        <pre key={i} className={`insp-final-text ${b.kind === 'tool_use' ? 'tool' : b.kind === 'thinking' ? 'thinking' : ''}`}>
          {b.toolName ? `${b.toolName}(` : ''}
          {b.text}
          {b.toolName ? ')' : ''}
        </pre>
      ))}
    </div>
  )
}

/**
 * A compaction's summary request as it streams: the summary as it forms (its newest part: the progress carries the
 * text, bounded), or, while the model thinks before writing, how much it has thought.
 */
function LiveSummaryView({ live, summary }: { live: LivePass; summary: LiveSummary }) {
  const thinking = summary.outputChars === 0 && summary.thinkingChars > 0
  return (
    <div className="insp-response" data-testid="live-response">
      <p className="muted">
        The compaction's summary request
        {live.model ? (
          <>
            {' · '}
            <ModelName id={live.model} />
          </>
        ) : null}{' '}
        · sent {clock(live.startedAt)}
        {live.firstDeltaAt !== null ? ` · first byte after ${ms(live.firstDeltaAt - live.startedAt)}` : ' · waiting for the first byte'}. Streaming: the raw
        response, its usage and its attempts are shown once the pass is stored.
      </p>
      {thinking && <p className="muted">{`The model is thinking before it writes (≈${grouped(Math.ceil(summary.thinkingChars / 4))} tokens so far)…`}</p>}
      {summary.textHidden > 0 && <p className="muted">{`${grouped(summary.textHidden)} earlier characters are not shown.`}</p>}
      {summary.text !== '' && (
        <pre className="insp-final-text" data-testid="live-summary-text">
          {summary.text}
        </pre>
      )}
    </div>
  )
}
