/**
 * The light / dark / system theme: an attribute on the root element (`data-theme`) picks one of the colour sets in
 * ui/theme.css, and Monaco's theme follows. "system" removes the attribute, so the media query decides.
 *
 * Monaco is loaded on first use (monaco/index.ts), and its setup picks a theme from the media query alone. So the
 * chosen theme is applied to Monaco whenever it changes once Monaco is there, and right after Monaco loads: the
 * setup announces itself by assigning `self.MonacoEnvironment`, and the theme is set again just after it.
 */
import { loadMonaco } from '../../monaco'
import type { Theme } from '../../state/settings'

const darkQuery = typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : null

export function resolvedTheme(theme: Theme): 'light' | 'dark' {
  return theme === 'system' ? (darkQuery?.matches ? 'dark' : 'light') : theme
}

let current: Theme = 'system'
let monacoLoaded = false

function applyMonaco(): void {
  if (!monacoLoaded) return
  void loadMonaco().then((m) => m.editor.setTheme(resolvedTheme(current) === 'dark' ? 'loupe-dark' : 'loupe-light'))
}

export function applyTheme(theme: Theme): void {
  current = theme
  const root = document.documentElement
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
  applyMonaco()
}

function watchMonacoSetup(): void {
  if (typeof self === 'undefined') return
  let environment: unknown = (self as { MonacoEnvironment?: unknown }).MonacoEnvironment
  if (environment !== undefined) {
    monacoLoaded = true
    return
  }
  Object.defineProperty(self, 'MonacoEnvironment', {
    configurable: true,
    get: () => environment,
    set(value: unknown) {
      environment = value
      monacoLoaded = true
      // After the setup module has run to its end (it sets its own theme last).
      setTimeout(applyMonaco, 0)
    },
  })
}

watchMonacoSetup()
// A system change while a theme is forced: the setup's own listener resets Monaco to the system's; set it back.
darkQuery?.addEventListener('change', () => setTimeout(applyMonaco, 0))
