import { findSession, useSessionsStore } from '../../state/sessions'

/**
 * Which session a session-wide view (Compaction, Cache) shows, beside its heading: the views follow the session chosen
 * in the sidebar, which is out of sight when the sidebar is scrolled or the window narrow.
 */
export function SessionLabel({ sessionId }: { sessionId: string }) {
  const title = useSessionsStore((s) => findSession(s, sessionId)?.title ?? null)
  if (title === null) return null
  return (
    <span className="view-session" title={title} data-testid="view-session">
      {title}
    </span>
  )
}
