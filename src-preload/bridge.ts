import type { Result } from './contract'

/** What the preload puts on `window.loupe` in the Electron host. The renderer's platform/client.ts wraps it. */
export interface LoupeBridge {
  request(name: string, input: unknown): Promise<Result<unknown>>
  onEvent(listener: (name: string, payload: unknown) => void): () => void
}
