/**
 * The inspector: every pass of the session, and for the selected one its exact request bytes, its response, and
 * its diff against the pass before. Mounted beside the chat by the shell; its size, dock side and whether it is
 * collapsed are remembered (state/inspector.ts).
 */
import { useRef, useState, type ReactNode, type RefObject } from 'react'
import { useResized } from '../../ui/resize'
import { useMonaco, type Monaco } from '../../monaco'
import { CHAT_MIN_HEIGHT_PX, CHAT_MIN_PX, LIST_MIN_PX, PANE_HEADER_PX, PANE_MAX_FRACTION, PANE_MIN_HEIGHT_PX, PANE_MIN_PX, selectWorkspaceShows, useInspectorStore, type InspectorView } from '../../state/inspector'
import { usePassesOf } from './data/passes'
import type { PassView } from './data/pass-view'
import { usePassView } from './data/use-pass-view'
import type { UsageLike } from './model/breakpoints'
import { missLine, passOutcome } from './model/outcome'
import { DiffView, LiveDiffNote } from './components/DiffView'
import { PassesList, passesListHeight } from './components/PassesList'
import { FOCUS_REGION } from '../shell/focus-fallback'
import { focusPassesList } from './reveal'
import { RequestView } from './components/RequestView'
import { LiveRequestNote, LiveResponseView, ResponseView } from './components/ResponseView'
import { passCountText } from './model/live'
import { ModelName, ModelNamed, tooltipWithNames } from './components/ModelName'
import { Splitter } from './components/Splitter'
import { onTablistKeyDown, tabStop } from '../../ui/tablist'
import './inspector.css'

/** The chat's bar above the inspector that shows alone docked below (`.chat-expand`, features/shell/Workspace.tsx). */
const CHAT_BAR_PX = 32
/** What the selected pass's view needs to be of use: its tabs, the request's controls and breakpoints, 120 px of bytes. */
const DETAIL_MIN_PX = 300

const VIEWS: ReadonlyArray<{ id: InspectorView; label: string }> = [
  { id: 'request', label: 'Request' },
  { id: 'response', label: 'Response' },
  { id: 'diff', label: 'Diff' },
]

/** The size of the space the inspector shares with the chat (its parent), following window and sidebar changes. */
function useSharedSpace(ref: RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: window.innerWidth, height: window.innerHeight })
  useResized(ref, (parent) => setSize({ width: parent.clientWidth, height: parent.clientHeight }), { parent: true })
  return size
}

export function InspectorPane({ sessionId }: { sessionId: string }) {
  usePassesOf(sessionId)
  const layout = useInspectorStore((s) => s.layout)
  const count = useInspectorStore((s) => s.passes.length)
  const hasLive = useInspectorStore((s) => s.live !== null)
  const ref = useRef<HTMLElement>(null)
  const space = useSharedSpace(ref)
  const { dock, collapsed } = layout
  // Where the chat and the pane cannot both keep their width (beside) or their height (below), one shows at a time
  // (decision 0048): the pane is then its bar while the chat shows, and takes the whole space, with no split to
  // drag, while it shows.
  const shows = useInspectorStore(selectWorkspaceShows)
  // The pane may take most of the space, but the chat keeps room to be read and typed in.
  const limit =
    dock === 'right'
      ? Math.max(PANE_MIN_PX, Math.min(space.width * PANE_MAX_FRACTION, space.width - CHAT_MIN_PX))
      : Math.max(PANE_MIN_HEIGHT_PX, Math.min(space.height * PANE_MAX_FRACTION, space.height - CHAT_MIN_HEIGHT_PX))
  const paneSize = Math.min(dock === 'right' ? layout.paneSize : layout.paneHeight, limit)
  const store = useInspectorStore.getState
  // The selected pass keeps room for its tabs, controls and some of its bytes: in a short pane (docked below in a
  // small window) the list gives way, down to its minimum, rather than pushing the bytes out of sight.
  // Beside, or alone below the chat's bar, the pane is as tall as the space; stacked under the chat, as tall as its size.
  const paneHeight = dock === 'right' ? space.height : shows === 'inspector' ? space.height - CHAT_BAR_PX : paneSize
  const paneInner = paneHeight - PANE_HEADER_PX
  const rows = count + (hasLive ? 1 : 0)
  const listRoom = Math.max(LIST_MIN_PX, paneInner - DETAIL_MIN_PX)
  const listHeight = Math.min(passesListHeight(rows, layout.listHeight, LIST_MIN_PX), listRoom)
  // The tallest the list is drawn now: its rows, within the room the selected pass leaves it.
  const listMax = Math.min(passesListHeight(rows, Infinity, LIST_MIN_PX), listRoom)

  if (collapsed || shows === 'chat') {
    return (
      <aside ref={ref} className={`insp collapsed dock-${dock}`} aria-label="Inspector" data-testid="inspector">
        <button
          type="button"
          className="insp-expand"
          onClick={() => {
            // Shown from its own bar: the keyboard goes on in the passes list, where the bar was.
            store().collapseToggled()
            focusPassesList()
          }}
          title="Show the inspector"
        >
          Inspector · {passCountText(count, hasLive)}
        </button>
      </aside>
    )
  }
  return (
    <aside
      ref={ref}
      className={`insp dock-${dock}${shows === 'inspector' ? ' alone' : ''}`}
      style={shows === 'inspector' ? undefined : dock === 'right' ? { width: paneSize } : { height: paneSize }}
      aria-label="Inspector"
      data-testid="inspector"
      // A control of the inspector that goes (a chip of a pass no longer shown) leaves the keyboard on the selected
      // pass's tab, or the passes list, not on the chat's heading (features/shell/focus-fallback.ts).
      {...{ [FOCUS_REGION]: '.insp-tabs [role="tab"][aria-selected="true"], [data-testid="passes-list"]' }}
    >
      {shows === 'both' && <Splitter edge={dock === 'right' ? 'left' : 'top'} size={paneSize} min={dock === 'right' ? PANE_MIN_PX : PANE_MIN_HEIGHT_PX} max={limit} onResize={(s) => store().paneResized(Math.min(s, limit))} label="Resize the inspector" />}
      <div className="insp-body">
        <Header count={count} streaming={hasLive} />
        <PassesList height={listHeight} />
        {/* While the list is no taller than its rows, growing it keeps the height the user gave it (there is nothing
            more to show yet); shrinking it below its rows sets a new one. */}
        <Splitter edge="bottom" size={listHeight} min={LIST_MIN_PX} max={listMax} onResize={(h) => store().listResized(h > listHeight ? Math.max(h, layout.listHeight) : h)} label="Resize the passes list" />
        <Detail />
      </div>
    </aside>
  )
}

function Header({ count, streaming }: { count: number; streaming: boolean }) {
  const scope = useInspectorStore((s) => s.scope)
  const dock = useInspectorStore((s) => s.layout.dock)
  const store = useInspectorStore.getState
  const dockLabel = dock === 'right' ? 'Dock below the chat' : 'Dock beside the chat'
  return (
    <header className="insp-head">
      <strong>Inspector</strong>
      <select value={scope} onChange={(e) => store().scopeChosen(e.target.value === 'project' ? 'project' : 'session')} aria-label="Which passes">
        <option value="session">This session</option>
        <option value="project">Whole project</option>
      </select>
      <span className="muted" data-testid="pass-count" title={passCountText(count, streaming)}>
        {passCountText(count, streaming)}
      </span>
      <span className="insp-head-actions">
        <button type="button" onClick={() => store().dockChosen(dock === 'right' ? 'bottom' : 'right')} title={dockLabel} aria-label={dockLabel}>
          <span className="insp-label-long">{dock === 'right' ? 'Dock below' : 'Dock beside'}</span>
          <span className="insp-label-short">{dock === 'right' ? 'Below' : 'Beside'}</span>
        </button>
        <button
          type="button"
          onClick={() => {
            // Hidden with this button: the keyboard goes to the bar that shows it again, not to the top of the page.
            store().collapseToggled()
            requestAnimationFrame(() => document.querySelector<HTMLElement>('.insp-expand')?.focus())
          }}
          aria-label="Collapse the inspector"
          title="Collapse"
        >
          Hide
        </button>
      </span>
    </header>
  )
}

function Detail() {
  const selectedId = useInspectorStore((s) => s.selectedPassId)
  const liveSelected = useInspectorStore((s) => s.liveSelected)
  const live = useInspectorStore((s) => s.live)
  const view = useInspectorStore((s) => s.view)
  const monaco = useMonaco()
  const state = usePassView(liveSelected ? null : selectedId)

  const tabs = (
    <div className="insp-tabs" role="tablist" aria-label="Pass views" onKeyDown={onTablistKeyDown}>
      {VIEWS.map((v) => (
        <button key={v.id} type="button" role="tab" aria-selected={view === v.id} tabIndex={tabStop(view === v.id)} onClick={() => useInspectorStore.getState().viewChosen(v.id)}>
          {v.label}
        </button>
      ))}
    </div>
  )
  let body: ReactNode
  if (liveSelected && live) body = view === 'diff' ? <LiveDiffNote live={live} /> : view === 'request' ? <LiveRequestNote live={live} /> : <LiveResponseView live={live} />
  else if (!selectedId) body = <p className="insp-empty">Pick a pass to see what it sent.</p>
  else if (state.error) body = <p className="bad insp-empty">Could not load the pass: {state.error}</p>
  else if (!state.view || !monaco) body = <p className="insp-empty">{monaco ? 'Loading the pass…' : 'Loading the editor…'}</p>
  else body = <ViewBody monaco={monaco} view={view} pass={state.view} />
  return (
    <section className="insp-detail" aria-label="Selected pass" aria-busy={state.loading}>
      <div className="insp-detail-head">
        {tabs}
        {state.view && !liveSelected && <PassLine pass={state.view} />}
        {state.loading && <span className="insp-loading">loading…</span>}
      </div>
      <div className="insp-view">{body}</div>
    </section>
  )
}

function ViewBody({ monaco, view, pass }: { monaco: Monaco; view: InspectorView; pass: PassView }) {
  switch (view) {
    case 'request':
      return <RequestView monaco={monaco} view={pass} />
    case 'response':
      return <ResponseView monaco={monaco} view={pass} />
    case 'diff':
      return <DiffView monaco={monaco} view={pass} />
  }
}

function PassLine({ pass }: { pass: PassView }) {
  const passes = useInspectorStore((s) => s.passes)
  const d = pass.detail
  const index = passes.findIndex((p) => p.id === d.id)
  let previous = null
  for (let i = index - 1; i >= 0; i--) if (passes[i]!.sessionId === d.sessionId) {
    previous = passes[i]!
    break
  }
  const outcome = passOutcome({ ...d, usage: d.usage as UsageLike | null }, previous ? { ...previous, usage: previous.usage as UsageLike | null } : null)
  const lost = missLine(d.attribution)
  // Models by their names ("Sonnet 4.6"), their ids in the tooltip and on hover.
  return (
    <span className="insp-pass-line" data-testid="pass-line" title={tooltipWithNames(`Pass ${d.seq} · ${d.kind} · ${d.model} · ${outcome.label}: ${outcome.cause}${lost ? ` · ${lost}` : ''}`)}>
      Pass {d.seq} · {d.kind} · <ModelName id={d.model} /> · <span className={`insp-badge ${outcome.kind}`}>{outcome.label}</span>{' '}
      <span className="muted" data-testid="pass-cause">
        <ModelNamed text={outcome.cause} />
      </span>
      {lost && <span className="insp-pass-lost" data-testid="pass-lost"> · {lost}</span>}
    </span>
  )
}
