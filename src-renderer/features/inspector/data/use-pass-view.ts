import { useEffect, useState } from 'react'
import { flushSync } from 'react-dom'
import { loadPassView, type PassView } from './pass-view'

export interface PassViewState {
  /** The pass asked for. */
  readonly passId: string | null
  /**
   * The latest view that finished loading. While the next pass loads, the previous one stays on screen, so the
   * editors showing it are kept and only their models change (creating an editor costs more than opening a text).
   */
  readonly view: PassView | null
  /** The asked-for pass is still loading (`view` may show an earlier one). */
  readonly loading: boolean
  readonly error: string | null
}

/** The view of one pass, fetched with `pass.get` when the id changes. */
export function usePassView(passId: string | null): PassViewState {
  const [state, setState] = useState<PassViewState>({ passId: null, view: null, loading: false, error: null })
  useEffect(() => {
    if (!passId) {
      setState({ passId: null, view: null, loading: false, error: null })
      return
    }
    let alive = true
    setState((s) => ({ passId, view: s.view, loading: s.view?.detail.id !== passId, error: null }))
    loadPassView(passId).then(
      // Rendered at once rather than in a later task: the pass is what the user is waiting for, and a queued
      // render would wait behind the editor's background work on the previous text.
      (view) => alive && flushSync(() => setState({ passId, view, loading: false, error: null })),
      (err: Error) => alive && setState((s) => ({ passId, view: s.view, loading: false, error: err.message })),
    )
    return () => {
      alive = false
    }
  }, [passId])
  return state
}

