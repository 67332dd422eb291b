import { useAppStore } from '../../state/app'
import { selectSelectedProject, useProjectsStore } from '../../state/projects'
import { useSessionsStore } from '../../state/sessions'
import { useInspectorStore } from '../../state/inspector'
import { ChatPane } from '../chat/ChatPane'
import { InspectorPane } from '../inspector/InspectorPane'
import { ProjectsSidebar } from '../projects/ProjectsSidebar'

export function AppShell() {
  const info = useAppStore((s) => s.info)
  const connection = useAppStore((s) => s.connection)
  // The chat and the inspector share one selection: picking a message selects the pass that produced it.
  const selectedPassId = useInspectorStore((s) => s.selectedPassId)
  const selectPass = useInspectorStore((s) => s.passSelected)
  const dock = useInspectorStore((s) => s.layout.dock)
  const project = useProjectsStore(selectSelectedProject)
  const session = useSessionsStore((s) =>
    project ? (s.byProject[project.id] ?? []).find((x) => x.id === s.selectedId) ?? null : null,
  )
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Loupe</span>
        <span className="topbar-spacer" />
        {info && (
          <span className={`model-badge ${info.model.kind}`} title={info.model.model}>
            {info.model.label}
          </span>
        )}
        <span className={`connection ${connection}`} data-testid="connection">
          {connection === 'ready' ? 'connected' : connection}
        </span>
      </header>
      <div className="body">
        <ProjectsSidebar />
        <main className="main-pane">
          {!project ? (
            <EmptyState title="Open a project to begin" hint="Type a folder path in the sidebar and press Open folder." />
          ) : !session ? (
            <EmptyState title={project.name} hint="Create a session with + New session, or pick one in the sidebar." />
          ) : (
            <div className={`workspace dock-${dock}`}>
              <ChatPane key={session.id} sessionId={session.id} title={session.title} selectedPassId={selectedPassId} onSelectPass={selectPass} />
              <InspectorPane sessionId={session.id} />
            </div>
          )}
        </main>
      </div>
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
