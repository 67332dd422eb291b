import { create } from 'zustand'

/**
 * A model switch asked for from outside the header's choice (the palette's "Switch model to …"): the session's
 * ModelSwitch takes it and asks the same question its choice asks (decision 0021), with the keyboard on it. A store,
 * not an event: the chat may render only after the command has asked.
 */
export const useModelSwitchRequest = create<{ readonly asked: { readonly sessionId: string; readonly model: string } | null }>(() => ({ asked: null }))

export function askModelSwitch(sessionId: string, model: string): void {
  useModelSwitchRequest.setState({ asked: { sessionId, model } })
}
