/** Driving a real app (createApp) through its contract from a node test. */
import type { App } from '../../src-main/node/app'

/** Dispatches a request and returns its value; a typed error fails the test with its code and message. */
export async function call<T>(app: App, name: string, input: unknown): Promise<T> {
  const result = await app.dispatch(name, input)
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`)
  return result.value as T
}

/** Resolves with the reason of the session's next `turn.ended`. Call before the request that starts the turn. */
export function turnEnded(app: App, sessionId: string): Promise<string> {
  return new Promise((resolve) => {
    const off = app.events.subscribe((name, payload) => {
      const p = payload as { sessionId: string; reason: string }
      if (name === 'turn.ended' && p.sessionId === sessionId) {
        off()
        resolve(p.reason)
      }
    })
  })
}
