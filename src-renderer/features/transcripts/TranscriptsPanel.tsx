/**
 * Claude Code sessions and the capture proxy (docs/claude-code-import.md "In the app", docs/proxy.md): a dialog that
 * lists the sessions under the projects folder by project, imports one or all, shows an imported session's totals
 * (read / write / uncached input, $, cached share, misses by cause, compactions before and after), opens it in the
 * inspector or continues it as a Loupe session; and switches the capture proxy on and off.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react'
import type { CacheSummaryView, TranscriptFileView, TranscriptTotalsView } from '../../../src-preload/contract'
import { client } from '../../platform/client'
import { useTranscriptsStore } from '../../state/transcripts'
import { bytes, clock, dateTime, grouped, shortModel, usd } from '../../ui/format'
import { importAll, importOne, listTranscripts, openImported, openPanel, readCacheFigures, refreshProxy, showTotals, toggleProxy } from './actions'
import { missLine } from './miss-line'
import { skippedLinesText } from './skipped-lines'
import { ContinueButton } from '../chat/ContinueButton'
import { useSettingsStore } from '../../state/settings'
import { useModalFocus } from '../../ui/modal-focus'
import { importAllCounts } from './import-all'
import { lastActiveMs, newestFirst, sessionTooltip } from './order'
import './transcripts.css'

const percent = (share: number) => `${(share * 100).toFixed(1)}%`

function day(ms: number | null): string {
  return ms === null ? '—' : dateTime(ms)
}

/** The sidebar's entry point: a button that opens the panel, and the panel itself. */
export function TranscriptsEntry() {
  return (
    <>
      <button type="button" className="cc-open" onClick={() => void openPanel()}>
        Claude Code sessions & proxy…
      </button>
      <TranscriptsPanel />
    </>
  )
}

export function TranscriptsPanel() {
  const open = useTranscriptsStore((s) => s.open)
  const close = useTranscriptsStore((s) => s.panelClosed)
  const dialog = useRef<HTMLDivElement>(null)
  // The panel has the keyboard while it is open: Esc closes it (and only it), Tab stays inside (ui/modal-focus.ts).
  useModalFocus(dialog, open, close)
  if (!open) return null
  return (
    <div className="cc-backdrop" onClick={(e) => e.target === e.currentTarget && close()}>
      <div ref={dialog} tabIndex={-1} className="cc-panel" role="dialog" aria-modal="true" aria-label="Claude Code sessions" data-testid="transcripts-panel">
        <header className="cc-head">
          <h1>Claude Code sessions</h1>
          <span className="cc-spacer" />
          <button type="button" onClick={close} aria-label="Close">
            Close
          </button>
        </header>
        <ProxySection />
        <FolderForm />
        <Listing />
        <Picked />
      </div>
    </div>
  )
}

function FolderForm() {
  const listing = useTranscriptsStore((s) => s.listing)
  const loading = useTranscriptsStore((s) => s.loading)
  const importing = useTranscriptsStore((s) => s.importing)
  const error = useTranscriptsStore((s) => s.error)
  const [folder, setFolder] = useState('')
  useEffect(() => {
    if (listing && folder === '') setFolder(listing.projectsDir)
  }, [listing, folder])
  // List and Import all are disabled while they run, which drops the keyboard from them to the page: once done, a
  // keyboard still on nothing goes back to the button pressed, or to List when Import all stays disabled (nothing is
  // left to import).
  const list = useRef<HTMLButtonElement>(null)
  const all = useRef<HTMLButtonElement>(null)
  const [focusBack, setFocusBack] = useState<'list' | 'all' | null>(null)
  useEffect(() => {
    if (focusBack === null) return
    const target = focusBack === 'all' && all.current !== null && !all.current.disabled ? all.current : list.current
    if (target === null || target.disabled) return
    setFocusBack(null)
    if (document.activeElement === null || document.activeElement === document.body) target.focus()
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    useTranscriptsStore.getState().folderChosen(folder)
    void listTranscripts().then(() => setFocusBack('list'))
  }
  // What Import all would bring in: sessions not imported yet, and imported ones whose file changed since; files
  // that hold no conversation (empty, not a transcript, unreadable) always fail, so they are counted apart.
  const { count, unimportable } = importAllCounts(listing?.projects ?? [])
  return (
    <form className="cc-folder" onSubmit={submit}>
      <label>
        <span>Projects folder</span>
        <input aria-label="Claude Code projects folder" value={folder} onChange={(e) => setFolder(e.target.value)} spellCheck={false} placeholder="~/.claude/projects" />
      </label>
      <button ref={list} type="submit" disabled={loading}>
        {loading ? 'Listing…' : 'List'}
      </button>
      <button ref={all} type="button" disabled={count === 0 || importing.length > 0} onClick={() => void importAll().then(() => setFocusBack('all'))}>
        {importing.includes('*') ? 'Importing all…' : `Import all (${count})`}
      </button>
      {unimportable > 0 && (
        <span className="muted small" data-testid="cc-unimportable">
          {unimportable === 1 ? '1 file is' : `${unimportable} files are`} left out: no conversation to import (marked below).
        </span>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}

function Listing() {
  const listing = useTranscriptsStore((s) => s.listing)
  const projects = useMemo(() => newestFirst(listing?.projects ?? []), [listing])
  if (!listing) return null
  // Entries the listing left out (a link leading out of the folder, an unreadable entry): said, not dropped silently.
  const skipped =
    listing.skippedEntries > 0 ? (
      <p className="muted small cc-skipped" data-testid="cc-skipped-entries">
        {listing.skippedEntries === 1 ? '1 entry' : `${listing.skippedEntries} entries`} of {listing.projectsDir} not listed: a symbolic link leading out of the folder, or an entry that could not be read. Loupe imports only what lies inside the folder.
      </p>
    ) : null
  if (projects.length === 0)
    return (
      <>
        <p className="muted cc-empty">No Claude Code session in {listing.projectsDir}.</p>
        {skipped}
      </>
    )
  return (
    <div className="cc-list" aria-label="Sessions by project">
      {skipped}
      {projects.map((p) => (
        <section key={p.project} className="cc-project">
          <h2 title={p.project}>{p.cwd ?? p.project}</h2>
          <table>
            <thead>
              <tr>
                <th>last active</th>
                <th>session</th>
                <th>model</th>
                <th className="num">requests</th>
                <th className="num">size</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {p.sessions.map((s) => (
                <SessionRow key={s.path} s={s} />
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  )
}

function SessionRow({ s }: { s: TranscriptFileView }) {
  const importing = useTranscriptsStore((st) => st.importing.includes(s.path) || st.importing.includes('*'))
  const picked = useTranscriptsStore((st) => st.picked?.path === s.path)
  // Import and Re-import are disabled while the file is imported, which drops the keyboard from them to the page. Once
  // the import is over, a keyboard still on nothing (or in this row) goes to this row's Open, the next thing to do with
  // it, or back to the button pressed when the import was refused; one the user moved meanwhile stays where it is.
  const row = useRef<HTMLTableRowElement>(null)
  const open = useRef<HTMLButtonElement>(null)
  const importButton = useRef<HTMLButtonElement>(null)
  const [focusAfter, setFocusAfter] = useState<'open' | 'import' | null>(null)
  const importHere = async () => setFocusAfter((await importOne(s.path)) ? 'open' : 'import')
  useEffect(() => {
    if (focusAfter === null) return
    // The listing that shows Open may not be drawn yet: this runs again when it is.
    const target = focusAfter === 'open' ? open.current : importButton.current
    if (target === null || target.disabled) return
    setFocusAfter(null)
    const active = document.activeElement
    if (active === null || active === document.body || (row.current?.contains(active) ?? false)) target.focus()
  }, [focusAfter, s.imported, importing])
  // Every row has the same buttons: each is described by its session's title, so a screen reader tells them apart.
  const titleId = useId()
  return (
    <tr ref={row} className={picked ? 'picked' : undefined} data-session-file={s.sessionId}>
      <td className="cc-when">{day(lastActiveMs(s))}</td>
      <td className="cc-title" title={sessionTooltip(s)} id={titleId}>
        <span className="cc-title-text">
          {s.title ?? s.sessionId}
          {s.subagentFiles > 0 && <span className="muted"> · {s.subagentFiles} subagent file(s)</span>}
          {s.unimportable ? <span className="warn"> · cannot be imported: {s.unimportable}</span> : s.skippedLines > 0 && <span className="warn" data-testid="cc-skipped-lines"> · {skippedLinesText(s.skippedLines, s.skippedBy)}</span>}
        </span>
      </td>
      <td>{s.models.map(shortModel).join(', ') || '—'}</td>
      <td className="num">{s.requests ?? '—'}</td>
      <td className="num">{bytes(s.sizeBytes)}</td>
      <td className="cc-actions">
        {s.imported ? (
          <>
            <button type="button" aria-describedby={titleId} onClick={() => void showTotals(s.path, s.imported!.sessionId)}>
              Totals
            </button>
            <button ref={open} type="button" aria-describedby={titleId} onClick={() => void openImported(s.imported!.projectId, s.imported!.sessionId)}>
              Open
            </button>
            {s.imported.changed && (
              <button ref={importButton} type="button" aria-describedby={titleId} disabled={importing} onClick={() => void importHere()} title="The file grew since it was imported">
                Re-import
              </button>
            )}
          </>
        ) : (
          <button type="button" aria-describedby={titleId} disabled={importing || Boolean(s.unimportable)} title={s.unimportable ? `Cannot be imported: ${s.unimportable}` : undefined} onClick={() => void importHere()} ref={importButton}>
            {importing ? 'Importing…' : 'Import'}
          </button>
        )}
      </td>
    </tr>
  )
}

function Figures({ t }: { t: Pick<TranscriptTotalsView, 'passes' | 'read' | 'write' | 'uncached' | 'output' | 'costUsd' | 'cachedShare'> }) {
  return (
    <dl className="cc-figures">
      <dt>requests</dt>
      <dd>{grouped(t.passes)}</dd>
      <dt>cache read</dt>
      <dd>{grouped(t.read)}</dd>
      <dt>cache write</dt>
      <dd>{grouped(t.write)}</dd>
      <dt>uncached input</dt>
      <dd>{grouped(t.uncached)}</dd>
      <dt>output</dt>
      <dd>{grouped(t.output)}</dd>
      <dt>cached share</dt>
      <dd>{percent(t.cachedShare)}</dd>
      <dt>cost</dt>
      <dd>{t.costUsd === null ? 'model not priced' : usd(t.costUsd)}</dd>
    </dl>
  )
}

function Picked() {
  const picked = useTranscriptsStore((s) => s.picked)
  const listing = useTranscriptsStore((s) => s.listing)
  if (!picked) return null
  const t = picked.totals
  const file = listing?.projects.flatMap((p) => p.sessions).find((s) => s.path === picked.path)
  return (
    <section className="cc-picked" aria-label="Session totals" data-testid="transcript-totals">
      <header>
        <h2>{t.title}</h2>
        <span className="cc-spacer" />
        {file?.imported && (
          <>
            <button type="button" onClick={() => void openImported(file.imported!.projectId, t.sessionId)}>
              Open in the inspector
            </button>
            {/* The chat's own button: where the transcript's folder is not on this machine, it offers a project to
                continue into instead of ending at a refusal. */}
            <ContinueButton
              sessionId={t.sessionId}
              projectId={file.imported.projectId}
              onContinued={() => {
                useSettingsStore.getState().viewChosen('chat')
                useTranscriptsStore.getState().panelClosed()
              }}
            />
          </>
        )}
      </header>
      <p className="muted">Reconstructed from the transcript: usage and times as Claude Code logged them; the request bodies hold the conversation only, not wire bytes.</p>
      <Figures t={t} />
      <MissLine t={t} />
      {t.compactions.length > 0 && (
        <ul className="cc-compactions" aria-label="Compactions">
          {t.compactions.map((c, i) => (
            <li key={i}>
              {c.trigger} compaction: {c.preTokens === null ? '?' : grouped(c.preTokens)} → {c.tokensAfter === null ? '?' : grouped(c.tokensAfter)} tokens
              {c.summaryChars !== null && <span className="muted"> · summary {grouped(c.summaryChars)} chars</span>}
              {c.costUsd > 0 && <span className="muted"> · the call cost {usd(c.costUsd)}</span>}
            </li>
          ))}
        </ul>
      )}
      {t.children.length > 0 && (
        <>
          <p className="muted">
            With {t.children.length} child session(s) (subagents, compaction calls): {grouped(t.includingChildren.passes)} requests, {usd(t.includingChildren.costUsd)}, cached share {percent(t.includingChildren.cachedShare)}.
          </p>
        </>
      )}
    </section>
  )
}

/**
 * Hits and misses in the Cache view's figures (its summary is read for the loss), so the two never disagree; the
 * counts show at once, the loss when the summary arrives.
 */
function MissLine({ t }: { t: TranscriptTotalsView }) {
  const [cache, setCache] = useState<{ sessionId: string; summary: CacheSummaryView } | null>(null)
  useEffect(() => {
    let current = true
    void readCacheFigures(t.sessionId).then((summary) => current && summary && setCache({ sessionId: t.sessionId, summary }))
    return () => {
      current = false
    }
  }, [t])
  return <p data-testid="transcript-misses">{missLine(t, cache?.sessionId === t.sessionId ? cache.summary : null)}</p>
}

function ProxySection() {
  const proxy = useTranscriptsStore((s) => s.proxy)
  const busy = useTranscriptsStore((s) => s.proxyBusy)
  const [port, setPort] = useState('')
  const running = proxy?.running ?? false
  // Each captured pass arrives as pass.completed: keep the counts current while the panel shows them.
  useEffect(() => (running ? client.on('pass.completed', () => void refreshProxy()) : undefined), [running])
  // Started or stopped from another window: the address shown must not be a dead port.
  useEffect(() => client.on('proxy.changed', () => void refreshProxy()), [])
  const parsedPort = port.trim() === '' ? null : Number(port)
  const portOk = parsedPort === null || (Number.isInteger(parsedPort) && parsedPort >= 0 && parsedPort <= 65535)
  return (
    <section className="cc-proxy" aria-label="Capture proxy">
      <h2>Capture proxy</h2>
      <p className="muted">Records another agent's exact requests: point it at the proxy and each request is forwarded, streamed back unchanged, and stored as a pass of a captured session. API keys pass through and are never stored.</p>
      <div className="cc-proxy-row">
        {!running && (
          <input
            aria-label="Proxy port"
            placeholder="port (any)"
            value={port}
            onChange={(e) => setPort(e.target.value)}
            inputMode="numeric"
            aria-invalid={portOk ? undefined : true}
            aria-describedby={portOk ? undefined : 'proxy-port-problem'}
          />
        )}
        <button type="button" disabled={busy || !portOk} onClick={() => void toggleProxy(parsedPort)}>
          {busy ? '…' : running ? 'Stop the proxy' : 'Start the proxy'}
        </button>
        {running && proxy && (
          <>
            <code data-testid="proxy-url">ANTHROPIC_BASE_URL={proxy.url}</code>
            <span className="muted">
              → {proxy.upstreamKind === 'simulator' ? 'the offline simulator' : proxy.upstream} · {grouped(proxy.requests)} {proxy.requests === 1 ? 'request' : 'requests'} recorded
            </span>
          </>
        )}
      </div>
      {!running && !portOk && (
        // A greyed-out Start says nothing by itself: the field says what it takes.
        <small className="field-problem" id="proxy-port-problem" data-testid="proxy-port-problem">
          A port is a whole number from 1 to 65535; leave it empty (or 0) for any free port.
        </small>
      )}
      {running && proxy && proxy.failed > 0 && (
        // Recorded all the same (their requests are in the captured session), but the agent got an error for each.
        <p className="cc-proxy-failed" role="status" data-testid="proxy-failed">
          {grouped(proxy.failed)} of them failed{proxy.lastError ? `; the newest at ${clock(proxy.lastError.at)}: ${proxy.lastError.message}` : ''}
        </p>
      )}
      {running && proxy && proxy.sessions.length > 0 && proxy.projectId && (
        <ul className="cc-captured">
          {proxy.sessions.map((s) => (
            <li key={s.sessionId}>
              <button type="button" onClick={() => void openImported(proxy.projectId!, s.sessionId)}>
                {s.client}
              </button>{' '}
              <span className="muted">
                {grouped(s.passes)} {s.passes === 1 ? 'pass' : 'passes'}
                {s.failed > 0 && `, ${grouped(s.failed)} failed`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
