/**
 * The one module that loads Monaco. Everything runs from the app's own files: the workers are bundled by Vite
 * (`?worker`), and `@monaco-editor/react` is pointed at this instance so it never fetches Monaco from a CDN
 * (docs/reference/toolchain.md §3; the CSP allows `worker-src 'self' blob:` and inline styles for it).
 *
 * Only the editor worker and the JSON worker are bundled: the inspector shows JSON and text. The JSON language
 * keeps its tokenizer (main thread) but not its worker features: validating, outlining or colour-decorating a
 * 600 KB request body would cost a core for nothing, and folding by indentation is exact for pretty-printed JSON.
 */
import * as monaco from 'monaco-editor'
import editorWorker from 'monaco-editor/editor/editor.worker?worker'
import jsonWorker from 'monaco-editor/languages/features/json/json.worker?worker'
import { loader } from '@monaco-editor/react'

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    if (label === 'json') return new jsonWorker()
    return new editorWorker()
  },
}
loader.config({ monaco })

monaco.json.jsonDefaults.setDiagnosticsOptions({ validate: false })
monaco.json.jsonDefaults.setModeConfiguration({
  tokens: true,
  foldingRanges: false,
  documentSymbols: false,
  hovers: false,
  colors: false,
  diagnostics: false,
  selectionRanges: false,
  completionItems: false,
  documentFormattingEdits: false,
  documentRangeFormattingEdits: false,
})

/**
 * Editor colours follow the app's theme (src-renderer/ui/theme.css): the root element's `data-theme` when the user
 * chose one (features/settings/theme.ts), else the system's light or dark.
 */
monaco.editor.defineTheme('loupe-light', {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: { 'editor.background': '#ffffff', 'editorGutter.background': '#f7f7f5', 'editorLineNumber.foreground': '#a09f98' },
})
monaco.editor.defineTheme('loupe-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: { 'editor.background': '#1c1d21', 'editorGutter.background': '#18191c', 'editorLineNumber.foreground': '#5d5e63' },
})

const dark = window.matchMedia('(prefers-color-scheme: dark)')
function applyTheme(): void {
  const chosen = document.documentElement.dataset.theme
  const isDark = chosen === 'dark' || (chosen !== 'light' && dark.matches)
  monaco.editor.setTheme(isDark ? 'loupe-dark' : 'loupe-light')
}
applyTheme()
dark.addEventListener('change', applyTheme)
new MutationObserver(applyTheme).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })

export { monaco }

if (localStorage.getItem('loupe.bench') === '1') void import('./bench-hook').then((h) => h.installBenchHook(monaco))
