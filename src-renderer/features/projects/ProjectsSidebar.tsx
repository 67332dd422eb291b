import { useState, type FormEvent } from 'react'
import { useAppStore } from '../../state/app'
import { useProjectsStore } from '../../state/projects'
import { TranscriptsEntry } from '../transcripts/TranscriptsPanel'
import { openProject, pickAndOpenProject, removeProject, selectProject } from './actions'
import { ActivityMarker, DeleteSessionDialog, SessionList } from './SessionList'
import { sessionsActivity, useChatStore } from '../../state/chat'
import { useSessionsStore } from '../../state/sessions'
import { SessionTransferDialog } from '../sessions/TransferDialog'

/** A running turn or a waiting approval in one of a project's sessions this window knows of. */
function ProjectActivity({ projectId, name }: { projectId: string; name: string }) {
  const ids = useSessionsStore((s) => s.byProject[projectId])
  const activity = useChatStore((s) => (ids ? sessionsActivity(s, ids.map((x) => x.id)) : null))
  return activity ? <ActivityMarker activity={activity} of={name} /> : null
}

/** What a project whose folder is gone from disk says (decision 0022). */
export const FOLDER_GONE = 'The folder is not at this path any more (deleted, renamed or moved): its sessions can be read, not continued.'

export function ProjectsSidebar() {
  const projects = useProjectsStore((s) => s.projects)
  const selectedId = useProjectsStore((s) => s.selectedId)
  const opening = useProjectsStore((s) => s.opening)
  const openError = useProjectsStore((s) => s.openError)
  const canBrowse = useAppStore((s) => s.info?.capabilities.folderDialog ?? false)
  const [path, setPath] = useState('')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void openProject(path).then(() => {
      if (!useProjectsStore.getState().openError) setPath('')
    })
  }

  return (
    <nav className="sidebar" aria-label="Projects">
      {/* Not a heading: the landmark is named "Projects" already, and a heading here would come before the view's
          own h1, so the page's outline would start in the sidebar. */}
      <p className="sidebar-title" aria-hidden="true">
        Projects
      </p>
      <form className="open-form" onSubmit={submit}>
        <input
          aria-label="Folder path"
          placeholder="/path/to/project"
          value={path}
          onChange={(e) => {
            setPath(e.target.value)
            useProjectsStore.getState().openPathEdited()
          }}
          spellCheck={false}
        />
        <div className="open-actions">
          <button type="submit" disabled={opening}>
            {opening ? 'Opening…' : 'Open folder'}
          </button>
          {canBrowse && (
            <button type="button" onClick={() => void pickAndOpenProject()}>
              Browse…
            </button>
          )}
        </div>
        {openError && (
          <p className="error" role="alert">
            {openError}
          </p>
        )}
      </form>
      <TranscriptsEntry />
      {projects.length === 0 ? (
        <p className="empty-hint">No projects yet. Type the path of a folder above and open it.</p>
      ) : (
        <ul className="project-list">
          {projects.map((p) => (
            <li key={p.id} className="project-row">
              <button
                className={`project${p.id === selectedId ? ' selected' : ''}${p.folderGone ? ' gone' : ''}`}
                aria-current={p.id === selectedId ? 'true' : undefined}
                aria-description={p.folderGone ? FOLDER_GONE : undefined}
                title={p.folderGone ? `${p.root}\n${FOLDER_GONE}` : p.root}
                onClick={() => void selectProject(p.id)}
              >
                <span className="project-name">
                  {/* A folder's name, set apart (bdi) from what the row says of it: right-to-left letters in it cannot reorder that. */}
                  <bdi>{p.name}</bdi>
                  {/* Its sessions are not listed while another project is shown: the project says what they do. */}
                  {p.id !== selectedId && <ProjectActivity projectId={p.id} name={p.name} />}
                </span>
                {/* A long path is cut at its start, so the folders that tell projects apart stay in sight: laid out
                    right to left for the cut, the path itself isolated left to right (theme.css). */}
                <span className="project-root" dir="rtl">
                  {/* Whole, not name by name: one run of text is what the start-cut lays out (the row's title holds the path). */}
                  <bdi dir="ltr">{p.root}</bdi>
                </span>
                {p.folderGone && (
                  <span className="project-gone" aria-hidden="true">
                    folder not found
                  </span>
                )}
              </button>
              {/* The pointer's way to take the project out of the list; the keyboard's and a screen reader's is the
                  palette's command. Kept out of the Tab order and the accessibility tree, as a session's rename and
                  delete are, so the list holds one control per project. Nothing is deleted. */}
              <button
                type="button"
                tabIndex={-1}
                aria-hidden="true"
                className="icon project-remove"
                title={`Remove ${p.name} from the list: its folder and sessions are kept, and opening the folder again brings it back`}
                onClick={() => void removeProject(p.id)}
              >
                ×
              </button>
              {p.id === selectedId && <SessionList projectId={p.id} />}
            </li>
          ))}
        </ul>
      )}
      <DeleteSessionDialog />
      <SessionTransferDialog />
    </nav>
  )
}
