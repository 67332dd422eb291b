/**
 * The baseline of the inspector benchmark (bench/inspector.bench.ts): a pass opened in a plain read-only Monaco
 * editor with no rules, labels or folding — fetched with the same `pass.get`, pretty-printed with
 * JSON.stringify, shown. Installed only when `localStorage['loupe.bench'] === '1'`.
 */
import type * as monaco from 'monaco-editor'
import { call } from '../platform/client'
import { afterPaint } from './index'
import { READ_ONLY_OPTIONS } from './options'

export interface PlainTiming {
  /** From asking for the pass to the plain editor painted. */
  readonly totalMs: number
  /** From having the pretty text to the plain editor painted: the editor alone. */
  readonly editorMs: number
}

declare global {
  interface Window {
    __loupeBench?: { openPlain(passId: string, width: number, height: number): Promise<PlainTiming>; closePlain(): void }
  }
}

export function installBenchHook(m: typeof monaco): void {
  let editor: monaco.editor.IStandaloneCodeEditor | null = null
  let host: HTMLDivElement | null = null
  window.__loupeBench = {
    async openPlain(passId, width, height) {
      if (!host) {
        host = document.createElement('div')
        host.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px;z-index:1000;background:white`
        document.body.append(host)
        editor = m.editor.create(host, { ...READ_ONLY_OPTIONS, folding: false, model: null })
      }
      // Shown only while it is measured, so it never covers (or costs) the app between measurements.
      host.style.display = 'block'
      editor!.layout()
      const started = performance.now()
      const pass = await call('pass.get', { passId })
      const text = JSON.stringify(JSON.parse(pass.requestBody), null, 2)
      const opened = performance.now()
      const previous = editor!.getModel()
      editor!.setModel(m.editor.createModel(text, 'json'))
      previous?.dispose()
      editor!.setScrollTop(0)
      await afterPaint()
      const done = performance.now()
      host.style.display = 'none'
      return { totalMs: done - started, editorMs: done - opened }
    },
    closePlain() {
      editor?.getModel()?.dispose()
      editor?.dispose()
      host?.remove()
      editor = null
      host = null
    },
  }
}
