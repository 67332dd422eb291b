/**
 * A project's sessions in the sidebar: pick one, rename it in place (double-click, F2, its ✎ or the palette), delete
 * it after a confirmation that names it (Delete, its × or the palette). Sessions another one started (an imported
 * Claude Code session's subagents and compaction calls) are folded under it (nest.ts): its ▸ or Right unfolds them,
 * Left folds them or goes back up to it. The most recently active come first, and a session written to moves up, but
 * not while the pointer is over the list (held-order.ts, decision 0070).
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import type { Session } from '../../../src-preload/contract'
import { sessionActivity, useChatStore, type SessionActivity } from '../../state/chat'
import { findSession, useSessionsStore } from '../../state/sessions'
import { useProjectsStore } from '../../state/projects'
import { startSession } from '../palette/commands'
import { deleteSession, renameSession } from '../sessions/actions'
import { listTabStop, verticalStep } from '../../ui/vertical-list'
import { useModalFocus } from '../../ui/modal-focus'
import { nestSessions, type NestedRow } from './nest'
import { inHeldOrder } from './held-order'
import { IMPORTED_PREFIX, madeTimes, rowTitle } from './shared-titles'
import { MAX_NAME_CHARS } from '../../../src-preload/names'

export function SessionList({ projectId }: { projectId: string }) {
  const sessions = useSessionsStore((s) => s.byProject[projectId])
  const holds = useProjectsStore((s) => s.projects.find((p) => p.id === projectId)?.notWorkingFolder ?? null)
  const gone = useProjectsStore((s) => s.projects.find((p) => p.id === projectId)?.folderGone === true)
  const selectedId = useSessionsStore((s) => s.selectedId)
  // An error about another project's sessions (a refused new session there) is not shown under this one.
  const error = useSessionsStore((s) => (s.errorProjectId === null || s.errorProjectId === projectId ? s.error : null))
  // One Tab stop for the whole list (the row last focused while still listed, else the open session, else the
  // first); Up, Down, Home and End move between rows, Enter opens one. A long list is not a long walk with Tab.
  const [current, setCurrent] = useState<string | null>(null)
  const [unfolded, setUnfolded] = useState<ReadonlySet<string>>(() => new Set())
  // The order the rows had when the pointer came over the list, kept while it is there (held-order.ts).
  const [held, setHeld] = useState<ReadonlyArray<string> | null>(null)
  const listed = useMemo(() => inHeldOrder(sessions ?? [], held), [sessions, held])
  const rows = nestSessions(listed, unfolded, selectedId)
  // Rows listed side by side with one name say when each session was made.
  const made = useMemo(() => madeTimes(sessions ?? []), [sessions])
  const tabStop = listTabStop(rows.map((r) => r.session.id), current, selectedId)
  const fold = (sessionId: string, open: boolean) =>
    setUnfolded((was) => {
      const next = new Set(was)
      if (open) next.add(sessionId)
      else next.delete(sessionId)
      return next
    })
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const rows = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button.session')]
    const at = rows.indexOf(event.target as HTMLButtonElement)
    if (at === -1) return
    const next = verticalStep(rows, at, event.key)
    if (next === undefined) return
    event.preventDefault()
    next.focus()
  }
  return (
    <div className="sessions">
      {holds ? (
        // Claude Code's logs, the proxy's captures: the sessions listed are theirs, and Loupe starts none here.
        <p className="muted small sessions-note" title={`This folder holds ${holds}: Loupe starts no session of its own here.`}>
          Recorded sessions only
        </p>
      ) : gone ? (
        // A session there would run tools in a folder that is not there (decision 0022): the note says where to go.
        <p className="muted small sessions-note" role="note">
          Folder not found: open it where it is now to start a session.
        </p>
      ) : (
        <button className="new-session" onClick={() => void startSession(projectId)}>
          + New session
        </button>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ul aria-label="Sessions" onKeyDown={onKeyDown} onPointerEnter={() => setHeld(listed.map((x) => x.id))} onPointerLeave={() => setHeld(null)}>
        {rows.map((row) => (
          <SessionRow key={row.session.id} row={row} made={made.get(row.session.id) ?? null} selected={row.session.id === selectedId} tabStop={row.session.id === tabStop} markImported={holds === null} onFocused={() => setCurrent(row.session.id)} onFold={fold} />
        ))}
      </ul>
    </div>
  )
}

/**
 * What a session is doing, as the chat store follows it: a string, so a row re-renders when it changes, not at every
 * streamed delta.
 */
const selectActivity = (sessionId: string) => (s: ReturnType<typeof useChatStore.getState>): SessionActivity => sessionActivity(s.bySession[sessionId])

/**
 * A small marker after a name: a turn running, or an approval waiting for the user. After a project's name it speaks
 * for its sessions (`of`: "in a session of proj2").
 */
export function ActivityMarker({ activity, of = null }: { activity: Exclude<SessionActivity, null>; of?: string | null }) {
  const label = `${activity === 'waiting' ? 'Waiting for your approval' : 'A turn is running'}${of === null ? '' : ` in a session of ${of}`}`
  return (
    <span className={`session-activity ${activity}`} role="img" aria-label={label} title={label}>
      {activity === 'waiting' ? 'approve?' : 'running'}
    </span>
  )
}

function SessionRow({ row, made, selected, tabStop, markImported, onFocused, onFold }: { row: NestedRow<Session>; made: string | null; selected: boolean; tabStop: boolean; markImported: boolean; onFocused(): void; onFold(sessionId: string, open: boolean): void }) {
  const session = row.session
  const renaming = useSessionsStore((s) => s.renamingId === session.id)
  const activity = useChatStore(selectActivity(session.id))
  const store = useSessionsStore.getState
  const button = useRef<HTMLButtonElement>(null)

  // After renaming (kept or cancelled) the keyboard comes back to the session, where F2 started it.
  const wasRenaming = useRef(false)
  useEffect(() => {
    if (wasRenaming.current && !renaming) button.current?.focus()
    wasRenaming.current = renaming
  }, [renaming])

  const rowClass = row.depth === 1 ? 'session-row child' : 'session-row'
  const title = rowTitle(session)
  if (renaming) {
    return (
      <li className={rowClass}>
        <RenameField session={session} />
      </li>
    )
  }
  const started = `${row.children} session${row.children === 1 ? '' : 's'} it started`
  return (
    <li className={activity ? `${rowClass} busy` : rowClass}>
      {row.children > 0 && (
        // The pointer's way to what Right and Left do on the session's button; out of the tab order like ✎ and ×.
        <button type="button" className="icon session-fold" tabIndex={-1} aria-hidden="true" title={`${row.unfolded ? 'Fold' : 'Show'} the ${started}`} onMouseDown={(e) => e.preventDefault()} onClick={() => onFold(session.id, !row.unfolded)}>
          {row.unfolded ? '▾' : '▸'}
        </button>
      )}
      <button
        ref={button}
        className={selected ? 'session selected' : 'session'}
        aria-current={selected ? 'true' : undefined}
        aria-expanded={row.children > 0 ? row.unfolded : undefined}
        aria-description={row.children > 0 ? `${started}; Right shows them, Left folds them` : row.depth === 1 ? 'started by the session above; Left goes back to it' : undefined}
        title={`${session.title}\nDouble-click or F2 to rename, Delete to delete`}
        aria-keyshortcuts="F2 Delete"
        tabIndex={tabStop ? 0 : -1}
        onFocus={onFocused}
        data-session-id={session.id}
        onClick={() => store().sessionSelected(session.id)}
        onDoubleClick={() => store().renameStarted(session.id)}
        onKeyDown={(e) => {
          if (e.key === 'F2') store().renameStarted(session.id)
          else if (e.key === 'Delete' || e.key === 'Backspace') store().deleteAsked(session.id)
          else if (e.key === 'ArrowRight' && row.children > 0 && !row.unfolded) onFold(session.id, true)
          else if (e.key === 'ArrowLeft' && row.children > 0 && row.unfolded) onFold(session.id, false)
          else if (e.key === 'ArrowLeft' && row.depth === 1 && session.parentSessionId) document.querySelector<HTMLElement>(`.sessions button.session[data-session-id="${CSS.escape(session.parentSessionId)}"]`)?.focus()
          else return
          e.preventDefault()
        }}
      >
        {/* In a folder of Claude Code's logs every session is one: the note above the list says so once. */}
        {title.imported && markImported && (
          <span className="session-origin" title="Imported from Claude Code" aria-hidden="true">
            CC
          </span>
        )}
        <span className="session-title">
          {/* Read out whole, as stored: "Claude Code: …". */}
          {title.imported && <span className="visually-hidden">{IMPORTED_PREFIX}</span>}
          {title.text}
        </span>
        {/* Read out as "Fix the login bug made 2026-12-03 15:04". Each part is a block of its own, which the name
            computation parts with a space: a comma or brackets around the time would be read with a space before. */}
        {made && (
          <span className="session-made muted">
            <span className="visually-hidden">made </span>
            {made}
          </span>
        )}
        {row.children > 0 && !row.unfolded && <span className="session-children muted">+{row.children}</span>}
        {activity && <ActivityMarker activity={activity} />}
      </button>
      {/* The pointer's way to what F2 and Delete do on the session's button (announced by its aria-keyshortcuts):
          kept out of the tab order and the accessibility tree, so the list holds one control per session. */}
      <span className="session-actions" aria-hidden="true">
        <button type="button" className="icon" tabIndex={-1} title="Rename (F2)" onMouseDown={(e) => e.preventDefault()} onClick={() => store().renameStarted(session.id)}>
          ✎
        </button>
        <button type="button" className="icon" tabIndex={-1} title="Delete… (Delete)" onMouseDown={(e) => e.preventDefault()} onClick={() => store().deleteAsked(session.id)}>
          ×
        </button>
      </span>
    </li>
  )
}

/**
 * The session's name, editable: Enter or leaving the field keeps it, Esc keeps the old one. A name the host did not
 * take leaves the field open with what was typed (the error above the list says why): Enter tries again, Esc gives up.
 */
function RenameField({ session }: { session: Session }) {
  const [title, setTitle] = useState(session.title)
  // Enter and Esc end the edit before the field loses focus; the blur that follows must not save a second time.
  const done = useRef(false)
  const finish = (keep: boolean) => {
    if (done.current) return
    done.current = true
    if (keep)
      void renameSession(session, title).then((renamed) => {
        if (!renamed) done.current = false
      })
    else useSessionsStore.getState().renameEnded()
  }
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') finish(true)
    else if (e.key === 'Escape') finish(false)
    else return
    // Handled: Esc here cancels the rename, and must not also stop the turn (features/palette/shortcuts.ts).
    e.preventDefault()
  }
  return (
    <input
      className="session-rename"
      aria-label="Session name"
      value={title}
      maxLength={MAX_NAME_CHARS}
      onChange={(e) => setTitle(e.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => finish(true)}
      onFocus={(e) => e.currentTarget.select()}
      autoFocus
      spellCheck={false}
    />
  )
}

/**
 * "Delete “title”?" — a modal confirmation naming the session, Cancel focused so Enter alone deletes nothing. Esc
 * or a click outside cancels; the keyboard then goes back where it was.
 */
export function DeleteSessionDialog() {
  const session = useSessionsStore((s) => findSession(s, s.deletingId))
  if (!session) return null
  return createPortal(<DeleteConfirmation session={session} />, document.body)
}

/**
 * Where the keyboard goes when the dialog about `sessionId` closes and what had it is gone (the session's row, once
 * deleted; the palette): the session's row if it is still there (cancelled), else the next row in its list, else
 * the one before, else the list's "+ New session" — never that first while a session is left, or the next Enter
 * would make one. Read now, called when the dialog closes.
 */
function rowsAround(sessionId: string): () => HTMLElement | null {
  const row = document.querySelector<HTMLElement>(`.sessions button.session[data-session-id="${CSS.escape(sessionId)}"]`)
  const sessions = row?.closest<HTMLElement>('.sessions') ?? document.querySelector<HTMLElement>('.sessions')
  const rows = sessions ? [...sessions.querySelectorAll<HTMLElement>('button.session')] : []
  const at = row ? rows.indexOf(row) : -1
  // The session itself, then the rows after it, then the rows before it, nearest first.
  const order = at === -1 ? rows : [row!, ...rows.slice(at + 1), ...rows.slice(0, at).reverse()]
  return () => {
    const listed = (el: HTMLElement) => el.isConnected && !!sessions?.contains(el)
    // A row drawn again meanwhile (the list re-rendered) is found by its session.
    const current = (el: HTMLElement) => (listed(el) ? el : sessions?.querySelector<HTMLElement>(`button.session[data-session-id="${CSS.escape(el.dataset.sessionId ?? '')}"]`) ?? null)
    for (const el of order) {
      const found = current(el)
      if (found) return found
    }
    return sessions?.querySelector<HTMLElement>('button.session') ?? sessions?.querySelector<HTMLElement>('.new-session') ?? document.querySelector<HTMLElement>('.new-session')
  }
}

function DeleteConfirmation({ session }: { session: Session }) {
  const [busy, setBusy] = useState(false)
  // A session whose turn runs (or waits for an approval) is stopped by the delete: said before, not found out after.
  const activity = useChatStore(selectActivity(session.id))
  const cancel = useRef<HTMLButtonElement>(null)
  const dialog = useRef<HTMLDivElement>(null)
  // Another session of the project with the same name: the question says which one, as its row does.
  const siblings = useSessionsStore((s) => s.byProject[session.projectId])
  const made = useMemo(() => madeTimes(siblings ?? []).get(session.id) ?? null, [siblings, session.id])
  // Where the keyboard goes if the session goes: read as the dialog opens, while the session's row is still listed.
  const [afterDelete] = useState(() => rowsAround(session.id))
  const dismiss = () => useSessionsStore.getState().deleteDismissed()
  // Cancel holds the keyboard; once closed it goes back where it was, or, the session's row gone, to its list.
  useModalFocus(dialog, true, dismiss, { initial: cancel, fallback: afterDelete })

  const confirm = async () => {
    setBusy(true)
    if (!(await deleteSession(session.id))) {
      setBusy(false)
      dismiss()
    }
  }
  return (
    <div className="confirm-backdrop" onMouseDown={(e) => e.target === e.currentTarget && dismiss()}>
      <div ref={dialog} className="confirm" role="alertdialog" aria-modal="true" aria-labelledby="delete-session-title" aria-describedby="delete-session-detail">
        <h2 id="delete-session-title">
          Delete “{session.title}”{made ? ` (made ${made})` : ''}?
        </h2>
        <p id="delete-session-detail">
          {activity === 'running' ? 'Its turn is still running: deleting stops it. ' : activity === 'waiting' ? 'Its turn is waiting for your approval: deleting stops it. ' : ''}
          Its messages and every pass recorded for it are removed from Loupe. This cannot be undone.
        </p>
        <div className="confirm-actions">
          {/* Deleted, it is gone; written to a file first, it can be imported again. */}
          <button type="button" className="confirm-aside" onClick={() => useSessionsStore.getState().exportAsked(session.id, true)} disabled={busy}>
            Export it first…
          </button>
          <button ref={cancel} type="button" onClick={dismiss} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="danger" onClick={() => void confirm()} disabled={busy}>
            {busy ? 'Deleting…' : 'Delete session'}
          </button>
        </div>
      </div>
    </div>
  )
}
