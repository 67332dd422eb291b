import { connectionLabel, connectionNotice, shutOut, useAppStore, type Connection } from '../../state/app'
import { selectSelectedProject, useProjectsStore } from '../../state/projects'
import { useSessionsStore } from '../../state/sessions'
import { useInspectorStore } from '../../state/inspector'
import { ChatPane } from '../chat/ChatPane'
import { ProjectsSidebar } from '../projects/ProjectsSidebar'
import { useSettingsStore } from '../../state/settings'
import { CacheView } from '../cache/CacheView'
import { CompactionView } from '../compaction/CompactionView'
import { FilesView } from '../files/FilesView'
import { Palette } from '../palette/Palette'
import { ViewTabs } from '../palette/ViewTabs'
import { SettingsView } from '../settings/SettingsView'
import { Workspace } from './Workspace'

export function AppShell() {
  const info = useAppStore((s) => s.info)
  const connection = useAppStore((s) => s.connection)
  const connectedOnce = useAppStore((s) => s.connectedOnce)
  const storeLost = useAppStore((s) => s.storeLost)
  // The chat and the inspector share one selection: picking a message selects the pass that produced it.
  const selectedPassId = useInspectorStore((s) => s.selectedPassId)
  const selectPass = useInspectorStore((s) => s.passSelected)
  const project = useProjectsStore(selectSelectedProject)
  const session = useSessionsStore((s) =>
    project ? (s.byProject[project.id] ?? []).find((x) => x.id === s.selectedId) ?? null : null,
  )
  // Chat | Compaction | Cache | Files | Settings; a view that needs a session (or a project) falls back to the chat's
  // empty state until there is one.
  const chosen = useSettingsStore((s) => s.view)
  const view = chosen === 'settings' || (chosen === 'files' && project) || session ? chosen : 'chat'
  if (shutOut(connection, connectedOnce)) return <ShutOut connection={connection} />
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Loupe</span>
        <ViewTabs hasProject={project !== null} hasSession={session !== null} />
        <span className="topbar-spacer" />
        {info && (
          <span className={`model-badge ${info.model.kind}`} title="What answers the requests; each session names its own model in the chat's header">
            {info.model.label}
          </span>
        )}
        <span className={`connection ${connection}`} data-testid="connection" title="This window's link to Loupe's host, not to the model service: a pass the service refuses or cannot reach says so in the chat">
          {connectionLabel(connection)}
        </span>
      </header>
      {connectionNotice(connection) !== null && (
        <p className={`connection-notice ${connection}`} role="alert" data-testid="connection-notice">
          {connectionNotice(connection)}
        </p>
      )}
      {storeLost !== null && (
        <p className="store-lost" role="alert" data-testid="store-lost">
          {storeLost}
        </p>
      )}
      <div className="body">
        <ProjectsSidebar />
        <main className="main-pane">
          {view === 'settings' ? (
            <SettingsView projectId={project?.id ?? null} projectName={project?.name ?? null} />
          ) : view === 'files' && project ? (
            <FilesView projectId={project.id} session={session ? { id: session.id, title: session.title } : null} />
          ) : !project ? (
            <EmptyState title="Open a project to begin" hint="Type a folder path in the sidebar and press Open folder." />
          ) : !session ? (
            <EmptyState
              title={project.name}
              hint={project.notWorkingFolder ? `This folder holds ${project.notWorkingFolder}: pick one of them in the sidebar. Loupe starts no session of its own here.` : 'Create a session with + New session, or pick one in the sidebar.'}
            />
          ) : view === 'compaction' ? (
            <CompactionView sessionId={session.id} />
          ) : view === 'cache' ? (
            <CacheView sessionId={session.id} />
          ) : (
            <Workspace
              sessionId={session.id}
              title={session.title}
              chat={<ChatPane key={session.id} sessionId={session.id} title={session.title} origin={session.origin ?? null} continued={session.continued ? { inherited: session.continued.inherited, fromModel: session.continued.fromModel ?? null } : null} parentSessionId={session.parentSessionId ?? null} skippedLines={session.skippedLines ?? null} projectId={project.id} selectedPassId={selectedPassId} onSelectPass={selectPass} />}
            />
          )}
        </main>
      </div>
      <Palette />
    </div>
  )
}

function EmptyState({ title, hint }: { title: string; hint: string }) {
  return (
    <div className="empty-state">
      <h1>{title}</h1>
      <p>{hint}</p>
    </div>
  )
}

/**
 * A page that never connected and never will: the header and why, nothing else. Its empty stores would otherwise
 * read as an empty host ("No projects yet", a remembered view's tab selected).
 */
function ShutOut({ connection }: { connection: Connection }) {
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Loupe</span>
        <span className="topbar-spacer" />
        <span className={`connection ${connection}`} data-testid="connection">
          {connectionLabel(connection)}
        </span>
      </header>
      <main className="main-pane">
        <div className="empty-state shut-out">
          <h1>Not connected to Loupe</h1>
          <p role="alert" data-testid="connection-notice">
            {connectionNotice(connection)}
          </p>
        </div>
      </main>
    </div>
  )
}
