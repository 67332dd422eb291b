/** The app store's connection, and what the header and the banner say of it (features/shell/AppShell.tsx). */
import { beforeEach, describe, expect, it } from 'vitest'
import { connectionLabel, connectionNotice, useAppStore } from '../../../src-renderer/state/app'

const store = () => useAppStore.getState()

describe('the connection', () => {
  beforeEach(() => useAppStore.setState({ connection: 'connecting' }))

  it('is lost, then ready again when the app is', () => {
    store().appReady()
    store().connectionLost()
    expect(store().connection).toBe('lost')
    expect(connectionLabel(store().connection)).toBe('reconnecting…')
    expect(connectionNotice(store().connection)).toContain('Connection to Loupe lost — reconnecting…')
    store().appReady()
    expect(store().connection).toBe('ready')
    expect(connectionLabel(store().connection)).toBe('connected')
    expect(connectionNotice(store().connection)).toBeNull()
  })

  it('stays refused: no attempt is made after a refusal, so it is never "reconnecting" again', () => {
    store().connectionLost()
    store().connectionRefused()
    store().connectionLost()
    expect(store().connection).toBe('refused')
    expect(connectionLabel('refused')).toBe('disconnected')
    expect(connectionNotice('refused')).toMatch(/host was restarted.*Open the new URL/)
  })
})
