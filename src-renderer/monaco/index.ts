/**
 * Monaco, loaded on first use: the editor is several megabytes, so the app starts without it and the inspector
 * asks for it when it opens. Other modules import only types from `monaco-editor`.
 */
import { useEffect, useState } from 'react'

export type Monaco = typeof import('monaco-editor')

let loading: Promise<Monaco> | null = null
/** Monaco once loaded: a component that appears after that has it in its first render. */
let loaded: Monaco | null = null

export function loadMonaco(): Promise<Monaco> {
  loading ??= import('./setup').then((m) => (loaded = m.monaco))
  return loading
}

/** The Monaco namespace if it has loaded, else null: for code outside React that looks for an editor on the page. */
export function loadedMonaco(): Monaco | null {
  return loaded
}

/**
 * The Monaco namespace once it has loaded (null until then). Already loaded, it is there from the first render: an
 * editor that replaces another (the Files view's merge replacing its editor) appears in the same commit, not a frame
 * later with nothing in between to hold the keyboard.
 */
export function useMonaco(): Monaco | null {
  const [instance, setInstance] = useState<Monaco | null>(loaded)
  useEffect(() => {
    let alive = true
    void loadMonaco().then((m) => alive && setInstance(m))
    return () => {
      alive = false
    }
  }, [])
  return instance
}

/** Resolves after the browser has painted the current frame: "the view is on screen". */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))
}
