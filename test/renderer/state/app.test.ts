/** The app store's connection, and what the header and the banner say of it (features/shell/AppShell.tsx). */
import { beforeEach, describe, expect, it } from 'vitest'
import { connectionLabel, connectionNotice, shutOut, useAppStore } from '../../../src-renderer/state/app'

const store = () => useAppStore.getState()

describe('the connection', () => {
  beforeEach(() => useAppStore.setState({ connection: 'connecting', connectedOnce: false }))

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

  it('a page opened without its key says that, not a restart, and shows nothing but why', () => {
    store().openedWithoutKey()
    expect(store().connection).toBe('keyless')
    expect(connectionLabel('keyless')).toBe('not connected')
    expect(connectionNotice('keyless')).toMatch(/^This page was opened without its access key.*open the URL the host printed when it started.*duplicate a tab/)
    expect(connectionNotice('keyless')).not.toMatch(/restart/)
    expect(shutOut(store().connection, store().connectedOnce)).toBe(true)
  })

  it('a refused page shows only why when it never connected; once connected, it keeps what it read', () => {
    store().connectionRefused()
    expect(shutOut(store().connection, store().connectedOnce)).toBe(true)
    useAppStore.setState({ connection: 'connecting', connectedOnce: false })
    store().appReady()
    store().connectionLost()
    store().connectionRefused()
    expect(shutOut(store().connection, store().connectedOnce)).toBe(false)
    expect(shutOut('lost', false)).toBe(false)
  })
})
