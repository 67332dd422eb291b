/**
 * The cache view (docs/inspector.md "Cache"): where the cache money went in a session. A timeline of cache read /
 * written / paid in full / output tokens and $ per pass, with compactions, context edits, file edits applied now,
 * model switches and idle gaps past the TTL marked on it and misses flagged with their causes; the totals: paid,
 * saved by the cache, lost to misses by cause, the cached share against the best possible, and the 1h-TTL and
 * keep-alive what-ifs.
 */
import { useEffect, useMemo, useRef } from 'react'
import { client } from '../../platform/client'
import { selectCache, useCacheStore } from '../../state/cache'
import { selectChat, useChatStore } from '../../state/chat'
import { useInspectorStore } from '../../state/inspector'
import { useSettingsStore } from '../../state/settings'
import { grouped as tok, usd } from '../../ui/format'
import { useSlow } from '../palette/use-slow'
import { loadCache } from './actions'
import { MARKER_GLYPH, MARKER_WORDS, TimelineChart } from './components/TimelineChart'
import { cacheEmptyState } from './model/empty'
import { buildTimeline, focusedPassFigures, isFlaggedMiss, lostByCause, markerKindsShown, missLost, missText, pricesLookup, savedByCache, savedHint, type Bar, type MarkerKind } from './model/timeline'
import { SessionLabel } from '../shell/SessionLabel'
import { KEEP_WARM_CAUSE } from '../inspector/model/outcome'
import { ModelNamed } from '../inspector/components/ModelName'
import { revealPass } from '../inspector/reveal'
import './cache.css'

const pct = (n: number) => `${(n * 100).toFixed(1)}%`

// Said for someone who does not know the cache's rules: what happened, not the rule's name.
const CAUSE_WORDS: Readonly<Record<string, string>> = {
  changed_block: 'an earlier part of the prompt changed (an edit, a file applied now, the tools, a message taken back)',
  model_changed: 'model switched (the cache is per model)',
  ttl_expired: 'the cache expired (an entry lives 5 minutes, or 1 hour, from when it was last read)',
  below_minimum: "prompt too short to cache (under the model's minimum)",
  lookback_exceeded: 'the cached part was too far back for the lookup (20 blocks)',
  concurrent: 'sent before the pass that writes the cache had begun to answer',
  no_response: 'the request got no response (nothing read or written)',
  no_breakpoint: 'no cache marker covered the prompt',
  unexplained: 'unexplained (prediction and service disagree)',
  cold: 'first pass (nothing cached yet)',
  none: 'only the new tail paid',
  // An imported transcript's causes (src-main/node/cache/transcript-summary.ts).
  compaction: 'compaction replaced the conversation',
  not_visible: 'a change the transcript does not record (system prompt, tools or reminders)',
  not_cached: 'caching not used',
}

export function CacheView({ sessionId }: { sessionId: string }) {
  const data = useCacheStore(selectCache(sessionId))
  const focusedPassId = useCacheStore((s) => s.focusedPassId)
  const chat = useChatStore(selectChat(sessionId))
  // The timeline's markers span the whole session: the entries read, and the landmarks before them (decision 0039).
  const entries = useMemo(() => (chat.landmarks.length === 0 ? chat.entries : [...chat.landmarks, ...chat.entries]), [chat.landmarks, chat.entries])
  const models = useSettingsStore((s) => s.data?.models ?? null)
  const slow = useSlow(data.loading)

  useEffect(() => {
    void loadCache(sessionId)
    const offs = [
      client.on('pass.completed', (e) => e.sessionId === sessionId && void loadCache(sessionId)),
      client.on('app.ready', () => void loadCache(sessionId)),
    ]
    return () => offs.forEach((off) => off())
  }, [sessionId])

  const timeline = useMemo(() => buildTimeline(data.passes, data.summary, entries), [data.passes, data.summary, entries])
  const saved = useMemo(() => {
    if (!models) return null
    return savedByCache(timeline.bars, pricesLookup(models))
  }, [timeline, models])
  const summary = data.summary
  const focused = timeline.bars.find((b) => b.passId === focusedPassId) ?? null
  const lost = useMemo(() => lostByCause(timeline.bars), [timeline])
  const chart = useRef<HTMLDivElement>(null)
  // A pass chosen from the list of misses is shown where a click on its bar shows it: the chart takes the keyboard
  // (Left and Right go on from that pass) and is scrolled to its top, so the pass's figures under it are in view too.
  const chooseFromList = (passId: string) => {
    useCacheStore.getState().passFocused(passId)
    chart.current?.focus({ preventScroll: true })
    chart.current?.scrollIntoView({ block: 'start' })
  }

  if (!summary) {
    return (
      <div className="view-page cache" data-testid="cache-view">
        <header className="view-head">
          <h1>Cache</h1>
          <SessionLabel sessionId={sessionId} />
          {slow && <span className="muted">Attributing the passes…</span>}
        </header>
        {data.error ? (
          <p className="error-box" role="alert">
            <strong>{data.error}</strong> Reopen the view to try again.
          </p>
        ) : null}
      </div>
    )
  }
  const t = summary.totals
  // Before any pass is answered there is nothing to chart: an empty state says so instead of zeros (model/empty.ts).
  const empty = cacheEmptyState(data.passes, chat.running)
  const paid = data.passes.reduce((s, p) => s + (p.costUsd ?? 0), 0)
  // Keep-warm pre-warms are requests of the session, paid and drawn, but not passes of the conversation: the totals
  // and the share count the conversation alone (src-main/node/cache/summary.ts), so each figure says which it counts.
  const warm = summary.keepWarm && summary.keepWarm.passes > 0 ? summary.keepWarm : null
  const warmCount = warm ? `${warm.passes} keep-warm pre-warm${warm.passes === 1 ? '' : 's'}` : ''
  return (
    <div className="view-page cache" data-testid="cache-view">
      <header className="view-head">
        <h1>Cache</h1>
        <SessionLabel sessionId={sessionId} />
        <span className="muted">
          {t.passes} pass{t.passes === 1 ? '' : 'es'}
          {warm && ` and ${warmCount}`}
          {slow && ' · updating…'}
        </span>
      </header>
      {summary.basis === 'transcript' && (
        <p className="muted small" data-testid="cache-basis">
          Imported from a Claude Code transcript: the figures are its recorded usage, the best possible is the previous request&apos;s whole prompt, and a
          miss is named as far as the transcript can tell. It does not record the bytes each request sent, so nothing here is predicted.
        </p>
      )}
      {empty ? (
        <div className="view-empty" data-testid="cache-empty" data-kind={empty.kind}>
          <h2>{empty.title}</h2>
          <p>{empty.body}</p>
        </div>
      ) : (
        <>
          <div className="cache-totals" data-testid="cache-totals">
            <Figure label="Paid" value={usd(paid)} hint={warm ? `every pass of the session, output included, and ${warmCount}: ${usd(warm.usd)}` : 'every pass of the session, output included'} />
            <Figure label="Saved by the cache" value={usd(saved)} hint={savedHint(saved, warm?.passes ?? 0)} />
            <Figure label="Lost to misses" value={usd(t.missUsd)} hint={`${tok(t.missTokens)} tokens paid for that could have been read`} tone={t.missUsd && t.missUsd > 0 ? 'bad' : ''} />
            <div className="cache-figure wide">
              <span className="cache-figure-label">Cached share of input</span>
              <div className="cache-share" role="img" aria-label={`${pct(t.cachedShare)} read from the cache; the best possible was ${pct(t.limitShare)}`}>
                <div className="cache-share-limit" style={{ width: pct(t.limitShare) }} />
                <div className="cache-share-actual" style={{ width: pct(t.cachedShare) }} />
              </div>
              <span className="muted small">
                {pct(t.cachedShare)} read from the cache · best possible {pct(t.limitShare)} · {tok(t.read)} of {tok(t.inputTotal)} input tokens
                {warm && ` of the ${t.passes} passes (the ${warmCount} apart)`}
              </span>
            </div>
          </div>
          <Legend markers={markerKindsShown(timeline.markers)} />
          <TimelineChart timeline={timeline} focusedPassId={focusedPassId} onFocus={(id) => useCacheStore.getState().passFocused(id)} chartRef={chart} />
          {focused ? <FocusedPass sessionId={sessionId} bar={focused} /> : <p className="muted small">Click a bar (or use the arrow keys on the chart) to see its pass; a triangle marks a miss or a partial hit, with its cause.</p>}
          <div className="cache-columns">
            <section className="cache-section" aria-labelledby="cache-misses">
              <h2 id="cache-misses">Misses and their causes</h2>
              <MissList bars={timeline.bars} onChoose={chooseFromList} />
            </section>
            <section className="cache-section" aria-labelledby="cache-causes">
              <h2 id="cache-causes">Lost to misses, by cause</h2>
              {lost.length === 0 ? (
                <p className="muted small">
                  {/* Beside a list of misses, "every pass read everything it could" would read as a contradiction. */}
                  {timeline.bars.some(isFlaggedMiss) ? 'Nothing was lost: the misses listed are ones no cache could have avoided (each one says why).' : 'Nothing was lost: every pass read everything it could.'}
                </p>
              ) : (
                <table className="cache-table">
                  <thead>
                    <tr>
                      <th>cause</th>
                      <th>passes</th>
                      <th>tokens</th>
                      <th>$</th>
                    </tr>
                  </thead>
                  <tbody>
                    {lost.map((c) => (
                      <tr key={c.kind}>
                        <td>{CAUSE_WORDS[c.kind] ?? c.kind.replace(/_/g, ' ')}</td>
                        <td>{c.passes}</td>
                        <td>{tok(c.tokens)}</td>
                        <td>{usd(c.usd)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {summary.basis !== 'transcript' && (
                <>
                  <h2>What if</h2>
                  <ul className="cache-whatifs">
                    <li data-testid="whatif-ttl">
                      <strong>1h TTL on the static prefix (tools and system):</strong> {summary.whatIfs.staticTtl1h.note}
                    </li>
                    <li data-testid="whatif-keepalive">
                      <strong>Keep-alive:</strong> {summary.whatIfs.keepAlive.note}
                    </li>
                  </ul>
                  <p className="muted small">
                    Predictions agreed with the service on {summary.agreement.agreed} of {summary.agreement.compared} {warm ? 'requests, the keep-warm pre-warms among them' : 'passes'}
                    {summary.agreement.unexplained > 0 ? `; ${summary.agreement.unexplained} unexplained` : ''}.
                  </p>
                </>
              )}
            </section>
          </div>
          {timeline.markers.length > 0 && (
            <section className="cache-section" aria-labelledby="cache-events">
              <h2 id="cache-events">Events on the timeline</h2>
              <ul className="cache-events">
                {timeline.markers.map((m, i) => (
                  <li key={i} data-kind={m.kind}>
                    {/* An event after the last pass so far: the next pass is the first to send what it changed. */}
                    {/* The words are one item of the row: a model's name among them is not set apart as a column. */}
                    <span className={`cache-dot ${m.kind}`} />
                    <span>
                      {MARKER_WORDS[m.kind]} {timeline.bars[m.beforeIndex] ? `before pass ${timeline.bars[m.beforeIndex]!.seq}` : 'after the last pass'}: <ModelNamed text={m.label} />
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </div>
  )
}

function Figure({ label, value, hint, tone = '' }: { label: string; value: string; hint: string; tone?: string }) {
  return (
    <div className="cache-figure" title={hint}>
      <span className="cache-figure-label">{label}</span>
      <strong className={`cache-figure-value ${tone}`}>{value}</strong>
      <span className="muted small">{hint}</span>
    </div>
  )
}

function Legend({ markers }: { markers: ReadonlyArray<MarkerKind> }) {
  return (
    // Each key stays with its words when the line wraps. Only the markers the timeline draws are named.
    <p className="cache-legend small" data-testid="cache-legend">
      <span className="cache-key"><span className="cache-swatch cache-read" /> read from the cache</span>
      <span className="cache-key"><span className="cache-swatch cache-write" /> written</span>
      <span className="cache-key"><span className="cache-swatch cache-uncached" /> paid in full</span>
      <span className="cache-key"><span className="cache-swatch cache-output" /> output</span>
      <span className="cache-key"><span className="cache-swatch line" /> $ per pass</span>
      {markers.length > 0 && <span className="cache-legend-markers">markers:</span>}
      {markers.map((kind) => (
        <span key={kind} className="cache-key" data-kind={kind}>
          <b>{MARKER_GLYPH[kind]}</b> {MARKER_WORDS[kind]}
        </span>
      ))}
    </p>
  )
}

function FocusedPass({ sessionId, bar }: { sessionId: string; bar: Bar }) {
  // The heading stands on its own line and the figures start on the next with a figure: a line never starts with a
  // separator (model/timeline.ts focusedPassFigures).
  return (
    <div className="cache-focused" data-testid="cache-focused">
      <strong>
        Pass {bar.seq} · {bar.kind === 'keep_warm' ? 'keep-warm pre-warm' : bar.kind}
      </strong>
      <p>
        <ModelNamed text={focusedPassFigures(bar, { tokens: tok, usd }, KEEP_WARM_CAUSE)} />{' '}
        <button type="button" onClick={() => revealPass(sessionId, bar.passId)}>
          Open in the inspector
        </button>
      </p>
    </div>
  )
}

function MissList({ bars, onChoose }: { bars: ReadonlyArray<Bar>; onChoose(passId: string): void }) {
  // A cold start is not a miss anything could have avoided.
  const misses = bars.filter(isFlaggedMiss)
  if (misses.length === 0) return <p className="muted small">No miss: every pass after the first read all it could of what the passes before it left.</p>
  return (
    <ul className="cache-misses">
      {misses.map((b) => (
        <li key={b.passId} data-testid="miss-row" data-cause={b.cause ?? ''}>
          <button type="button" className="linklike" onClick={() => onChoose(b.passId)}>
            pass {b.seq}
          </button>{' '}
          {/* Red only where something was lost: a miss no cache could have avoided (a prefix below the model's
              minimum, a pause past every TTL) is said without alarm. */}
          <span className={`chip ${b.missTokens > 0 ? (b.outcome === 'miss' ? 'bad' : 'warn') : ''}`}>{b.outcome}</span> <ModelNamed text={missText(b, CAUSE_WORDS)} />
          {missLost(b, usd) && <span className="muted"> · {missLost(b, usd)}</span>}
        </li>
      ))}
    </ul>
  )
}
