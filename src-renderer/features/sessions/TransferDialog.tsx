/**
 * Moving a session between machines: "Export this session…" writes it to one JSON file (`session.export`), "Import a
 * session…" reads one into a project (`session.import`). Opened from the palette, or "Export it first…" in the delete
 * confirmation. A path field in both, so the browser host and the desktop app work alike; the export's field starts
 * at the data folder's exports/ (an export elsewhere never replaces a file). Where the host has a file dialog (the
 * desktop app), Browse… beside the field fills it from the dialog; the user still presses Export or Import.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { useAppStore } from '../../state/app'
import { useProjectsStore } from '../../state/projects'
import { findSession, useSessionsStore, type SessionTransfer } from '../../state/sessions'
import { bytes } from '../../ui/format'
import { useModalFocus } from '../../ui/modal-focus'
import { exportSession, importSession, pickTransferFile } from './actions'

export function SessionTransferDialog() {
  const transfer = useSessionsStore((s) => s.transfer)
  if (transfer === null) return null
  // Keyed: a second request while one is open starts afresh, not with the other's field and result.
  return createPortal(<Dialog key={`${transfer.kind}:${transfer.kind === 'export' ? transfer.sessionId : transfer.projectId}`} transfer={transfer} />, document.body)
}

const dismiss = () => useSessionsStore.getState().transferDismissed()

function Dialog({ transfer }: { transfer: SessionTransfer }) {
  const dialog = useRef<HTMLDivElement>(null)
  const field = useRef<HTMLInputElement>(null)
  // Closed, the keyboard goes back where it was; from a dialog that is gone (the delete confirmation's "Export it
  // first…"), to the session's row: the exported one, or the one just imported and opened.
  useModalFocus(dialog, true, dismiss, {
    initial: field,
    fallback: () => {
      const id = transfer.kind === 'export' ? transfer.sessionId : useSessionsStore.getState().selectedId
      return id === null ? null : document.querySelector<HTMLElement>(`.sessions button.session[data-session-id="${CSS.escape(id)}"]`)
    },
  })
  return (
    <div className="confirm-backdrop" onMouseDown={(e) => e.target === e.currentTarget && dismiss()}>
      <div ref={dialog} className="confirm transfer" role="dialog" aria-modal="true" aria-labelledby="transfer-title">
        {transfer.kind === 'export' ? <ExportForm sessionId={transfer.sessionId} field={field} /> : <ImportForm projectId={transfer.projectId} field={field} />}
      </div>
    </div>
  )
}

type FieldRef = React.RefObject<HTMLInputElement | null>

function ExportForm({ sessionId, field }: { sessionId: string; field: FieldRef }) {
  const session = useSessionsStore((s) => findSession(s, sessionId))
  const dataDir = useAppStore((s) => s.info?.dataDir ?? '')
  const [path, setPath] = useState(() => (dataDir ? `${dataDir.replace(/[\\/]+$/, '')}/exports/${sessionId}.json` : ''))
  const [state, setState] = useState<{ kind: 'editing' | 'busy' } | { kind: 'failed'; error: string } | { kind: 'done'; path: string; bytes: number; replaced: boolean }>({ kind: 'editing' })
  const submit = async () => {
    setState({ kind: 'busy' })
    const result = await exportSession(sessionId, path)
    setState(result.ok ? { kind: 'done', path: result.path, bytes: result.bytes, replaced: result.replaced } : { kind: 'failed', error: result.error })
  }
  // Said on the button: a copy otherwise shows nothing, and the clipboard can be refused (no permission, no focus).
  const [copied, setCopied] = useState<boolean | null>(null)
  const copy = async (text: string) => setCopied(await (navigator.clipboard?.writeText(text).then(() => true, () => false) ?? Promise.resolve(false)))
  // Written: the form that had the keyboard is gone, and Close takes it (the path above it is one Shift+Tab away).
  const close = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (state.kind === 'done') close.current?.focus()
  }, [state.kind])
  if (state.kind === 'done') {
    return (
      <>
        <h2 id="transfer-title">
          Exported “<bdi>{session?.title ?? sessionId}</bdi>”
        </h2>
        <p role="status">
          {bytes(state.bytes)} written{state.replaced ? ', replacing the earlier export of this session' : ''}. Another Loupe reads it with “Import a session into …” in its command palette.
        </p>
        <label className="transfer-field">
          File
          <input ref={field} readOnly value={state.path} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        </label>
        <div className="confirm-actions">
          <button type="button" onClick={() => void copy(state.path)}>
            {copied === null ? 'Copy path' : copied ? 'Copied' : 'Could not copy: select the path above'}
          </button>
          <button ref={close} type="button" className="primary" onClick={dismiss}>
            Close
          </button>
        </div>
      </>
    )
  }
  return (
    <PathForm
      heading={
        <>
          Export “<bdi>{session?.title ?? sessionId}</bdi>”
        </>
      }
      intro="One JSON file: the conversation, and every pass with the exact bytes it sent and received. It holds what the passes sent — the files the agent read, your instruction and memory files — so share it as you would those."
      label="Save to"
      path={path}
      onPath={setPath}
      field={field}
      state={state}
      action={{ idle: 'Export', busy: 'Exporting…' }}
      purpose="export"
      onSubmit={submit}
    />
  )
}

function ImportForm({ projectId, field }: { projectId: string; field: FieldRef }) {
  const project = useProjectsStore((s) => s.projects.find((p) => p.id === projectId))
  const [path, setPath] = useState('')
  const [state, setState] = useState<{ kind: 'editing' | 'busy' } | { kind: 'failed'; error: string } | { kind: 'present'; title: string; project: string | null }>({ kind: 'editing' })
  const close = useRef<HTMLButtonElement>(null)
  const submit = async () => {
    setState({ kind: 'busy' })
    const result = await importSession(projectId, path)
    if (!result.ok) return setState({ kind: 'failed', error: result.error })
    if (!result.alreadyPresent) return dismiss()
    const home = result.session.projectId === projectId ? null : (useProjectsStore.getState().projects.find((p) => p.id === result.session.projectId)?.name ?? null)
    setState({ kind: 'present', title: result.session.title, project: home })
  }
  // The form that had the keyboard is gone: Close takes it.
  useEffect(() => {
    if (state.kind === 'present') close.current?.focus()
  }, [state.kind])
  if (state.kind === 'present') {
    return (
      <>
        <h2 id="transfer-title">
          Already here: “<bdi>{state.title}</bdi>”
        </h2>
        <p role="status">
          This session is in Loupe already{state.project ? <>, in <bdi>{state.project}</bdi></> : ''}, and is open now. An export keeps its session's identity, so it is
          imported once; what was added to the session here since is kept.
        </p>
        <div className="confirm-actions">
          <button ref={close} type="button" className="primary" onClick={dismiss}>
            Close
          </button>
        </div>
      </>
    )
  }
  return (
    <PathForm
      // The project's name, as the user or its folder gave it, set apart from the dialog's words.
      heading={<>Import a session into {project ? <bdi>{project.name}</bdi> : 'this project'}</>}
      intro="A file written by “Export this session…”, from this Loupe or another. It is added to the project's sessions and opened, with its passes as they were recorded."
      label="File"
      path={path}
      onPath={setPath}
      field={field}
      state={state}
      action={{ idle: 'Import', busy: 'Importing…' }}
      purpose="import"
      onSubmit={submit}
    />
  )
}

/** The form both dialogs ask with: what it does, one path, why it failed, and Cancel or the action. */
function PathForm(props: {
  heading: ReactNode
  intro: string
  label: string
  path: string
  onPath: (path: string) => void
  field: FieldRef
  state: { readonly kind: string; readonly error?: string }
  action: { readonly idle: string; readonly busy: string }
  purpose: 'export' | 'import'
  onSubmit: () => Promise<void>
}) {
  const busy = props.state.kind === 'busy'
  const canBrowse = useAppStore((s) => s.info?.capabilities.fileDialog ?? false)
  // The dialog's own failure (it could not be shown) is said where a failed export or import is.
  const [browseError, setBrowseError] = useState<string | null>(null)
  const browse = async () => {
    const picked = await pickTransferFile(props.purpose, props.path)
    setBrowseError(picked.ok ? null : `The file dialog could not be shown: ${picked.error}`)
    if (picked.ok && picked.path !== null) props.onPath(picked.path)
    // Back to the field, which now holds the choice: Enter goes on with it.
    props.field.current?.focus()
  }
  const error = browseError ?? (props.state.kind === 'failed' ? props.state.error : null)
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        setBrowseError(null)
        void props.onSubmit()
      }}
    >
      <h2 id="transfer-title">{props.heading}</h2>
      <p>{props.intro}</p>
      <div className="transfer-path">
        <label className="transfer-field">
          {props.label}
          <input ref={props.field} value={props.path} onChange={(e) => props.onPath(e.target.value)} placeholder="/absolute/path/session.json" spellCheck={false} disabled={busy} />
        </label>
        {canBrowse && (
          <button type="button" onClick={() => void browse()} disabled={busy}>
            Browse…
          </button>
        )}
      </div>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="confirm-actions">
        <button type="button" onClick={dismiss}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy || props.path.trim() === ''}>
          {busy ? props.action.busy : props.action.idle}
        </button>
      </div>
    </form>
  )
}
