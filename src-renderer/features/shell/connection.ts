/**
 * Browser mode's connection, as the app shows it: the header and a banner say when it is lost or refused, and a page
 * opened without its key, or refused before it ever connected, shows only why (AppShell.tsx); a turn that was
 * running is no longer shown as running (nothing of it can be heard until the connection is back, and Stop could
 * not reach it), and once it is back what the page holds is read again. The projects and the selected project's
 * sessions are read again by every `app.ready` (main.tsx), the inspector's passes too
 * (features/inspector/data/passes.ts); this reads each chat the page had loaded.
 */
import { client } from '../../platform/client'
import { useAppStore } from '../../state/app'
import { useChatStore } from '../../state/chat'
import { loadSession } from '../chat/actions'
import { NOT_CONNECTED } from '../../platform/socket-transport'

export const TURN_UNKNOWN = 'Connection to Loupe lost: whether this turn is still running is unknown until it is back.'

export function connectConnectionEvents(): void {
  let reconnecting = false
  client.onConnection((status) => {
    if (status === 'open') return
    // Never connected, so no chat holds anything to retract.
    if (status === 'keyless') return useAppStore.getState().openedWithoutKey()
    if (status === 'refused') {
      useAppStore.getState().connectionRefused()
      retractReconnecting()
    } else useAppStore.getState().connectionLost()
    if (reconnecting) return
    reconnecting = true
    const chat = useChatStore.getState()
    for (const [sessionId, s] of Object.entries(chat.bySession)) {
      if (s.running || s.listedActivity !== null) chat.connectionLost(sessionId, TURN_UNKNOWN)
    }
  })
  client.on('app.ready', () => {
    if (!reconnecting) return
    reconnecting = false
    for (const [sessionId, s] of Object.entries(useChatStore.getState().bySession)) if (s.loaded) void loadSession(sessionId)
  })
}

/**
 * A chat error from a request made while the connection was being made again says to try again once connected. Once
 * the host has refused the page, that will not happen: the error says what will do instead.
 */
function retractReconnecting(): void {
  const chat = useChatStore.getState()
  for (const [sessionId, s] of Object.entries(chat.bySession)) {
    if (s.error?.includes(NOT_CONNECTED.lost)) chat.failed(sessionId, s.error.replace(NOT_CONNECTED.lost, NOT_CONNECTED.refused))
  }
}
