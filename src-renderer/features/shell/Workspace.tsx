/**
 * A session's workspace: the chat with the inspector beside it or below it. Where the space is too narrow for the
 * chat and the inspector beside it to keep their least widths, or too short for both stacked, one shows at a time
 * (decision 0048): the chat, with the inspector as its bar at the right (or bottom) edge, or the inspector, with the
 * chat as its bar at the left (or top) edge. The size the user gave the inspector is kept for when both fit again.
 */
import { useRef, type ReactNode } from 'react'
import { useResized } from '../../ui/resize'
import { selectWorkspaceShows, useInspectorStore } from '../../state/inspector'
import { focusMessageBox } from '../chat/focus'
import { InspectorPane } from '../inspector/InspectorPane'

export function Workspace({ sessionId, title, chat }: { sessionId: string; title: string; chat: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null)
  const dock = useInspectorStore((s) => s.layout.dock)
  const shows = useInspectorStore(selectWorkspaceShows)
  // The window or the sidebar changed: measured before the frame is drawn, so a window made narrow or short never
  // draws the chat squeezed first. Both sides, as the dock may change without the space changing.
  useResized(ref, (element) => useInspectorStore.getState().workspaceMeasured(element.clientWidth, element.clientHeight))
  return (
    <div ref={ref} className={`workspace dock-${dock}`} data-shows={shows}>
      {shows === 'inspector' ? (
        <button type="button" className="chat-expand" title="Show the chat" onClick={focusMessageBox}>
          Chat · {title}
        </button>
      ) : (
        chat
      )}
      <InspectorPane sessionId={sessionId} />
    </div>
  )
}
