import { useEffect, useState } from 'react'
import { loadPassView, type PassView } from './pass-view'

export type PassViewState =
  | { readonly status: 'idle' }
  | { readonly status: 'loading'; readonly passId: string }
  | { readonly status: 'ready'; readonly passId: string; readonly view: PassView }
  | { readonly status: 'error'; readonly passId: string; readonly message: string }

/** The view of one pass, fetched with `pass.get` when the id changes. */
export function usePassView(passId: string | null): PassViewState {
  const [state, setState] = useState<PassViewState>({ status: 'idle' })
  useEffect(() => {
    if (!passId) {
      setState({ status: 'idle' })
      return
    }
    let alive = true
    setState({ status: 'loading', passId })
    loadPassView(passId).then(
      (view) => alive && setState({ status: 'ready', passId, view }),
      (err: Error) => alive && setState({ status: 'error', passId, message: err.message }),
    )
    return () => {
      alive = false
    }
  }, [passId])
  return state
}
