import type { EventName, EventPayload } from '../../src-preload/contract'

export type EventListener = (name: EventName, payload: unknown) => void

/** Fans contract events out to every connected client (Electron windows, WebSocket connections). */
export class EventHub {
  private readonly listeners = new Set<EventListener>()

  emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
    for (const listener of this.listeners) {
      try {
        listener(name, payload)
      } catch {
        // A broken connection must not stop delivery to the others; the transport logs its own failures.
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
