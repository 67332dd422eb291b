/**
 * The preload: exposes one object, `window.loupe`, through contextBridge. It forwards only request names the
 * contract declares (unknown names are rejected here, before IPC) and never exposes ipcRenderer itself.
 * Built as CommonJS, which is what a sandboxed preload accepts.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { IPC_EVENT_CHANNEL, IPC_REQUEST_CHANNEL, isRequestName, type Result } from './contract'
import type { LoupeBridge } from './bridge'

const bridge: LoupeBridge = {
  request(name: string, input: unknown): Promise<Result<unknown>> {
    if (!isRequestName(name)) {
      return Promise.resolve({ ok: false, error: { code: 'unknown_request', message: `No request named ${JSON.stringify(String(name).slice(0, 100))}` } })
    }
    return ipcRenderer.invoke(IPC_REQUEST_CHANNEL, name, input) as Promise<Result<unknown>>
  },
  onEvent(listener: (name: string, payload: unknown) => void): () => void {
    const wrapped = (_event: unknown, name: string, payload: unknown) => listener(name, payload)
    ipcRenderer.on(IPC_EVENT_CHANNEL, wrapped)
    return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, wrapped)
  },
}

contextBridge.exposeInMainWorld('loupe', bridge)
