/**
 * The baseline of the inspector benchmark (bench/inspector.bench.ts): the same text opened in a plain read-only
 * Monaco editor with no rules, labels or folding. Installed only when `localStorage['loupe.bench'] === '1'`.
 */
import type * as monaco from 'monaco-editor'
import { afterPaint } from './index'
import { READ_ONLY_OPTIONS } from './options'

declare global {
  interface Window {
    __loupeBench?: { openPlain(text: string, width: number, height: number): Promise<number>; closePlain(): void }
  }
}

export function installBenchHook(m: typeof monaco): void {
  let editor: monaco.editor.IStandaloneCodeEditor | null = null
  let host: HTMLDivElement | null = null
  window.__loupeBench = {
    async openPlain(text, width, height) {
      if (!host) {
        host = document.createElement('div')
        host.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px;z-index:1000;background:white`
        document.body.append(host)
        editor = m.editor.create(host, { ...READ_ONLY_OPTIONS, folding: false, model: null })
      }
      const started = performance.now()
      const previous = editor!.getModel()
      editor!.setModel(m.editor.createModel(text, 'json'))
      previous?.dispose()
      editor!.setScrollTop(0)
      await afterPaint()
      return performance.now() - started
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
