/**
 * The chat and the inspector beside it in a space too narrow for both (decision 0048): one shows at a time, the chat
 * first; the inspector's bar, Hide and Mod+I switch between them; the split and its width come back with the room.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { ONE_AT_A_TIME_BELOW_PX, selectInspectorHidden, selectWorkspaceShows, useInspectorStore } from '../../../src-renderer/state/inspector'

const store = useInspectorStore.getState
const shows = () => selectWorkspaceShows(store())
const NARROW = 600 // what an 800 px window leaves beside the sidebar
const WIDE = 1030 // a 1280 px one

describe('the workspace in a narrow window', () => {
  beforeEach(() =>
    useInspectorStore.setState({ workspaceWidth: null, aloneShown: 'chat', layout: { dock: 'right', paneSize: 560, paneHeight: 420, collapsed: false, listHeight: 180, contextMap: true } }),
  )

  it('shows both side by side while the chat and the pane fit at their least widths', () => {
    store().workspaceMeasured(WIDE)
    expect(shows()).toBe('both')
    store().workspaceMeasured(ONE_AT_A_TIME_BELOW_PX)
    expect(shows()).toBe('both')
    store().workspaceMeasured(ONE_AT_A_TIME_BELOW_PX - 1)
    expect(shows()).toBe('chat')
  })

  it('opens on the chat when the window narrows, the inspector a press away, and Hide goes back to the chat', () => {
    store().workspaceMeasured(WIDE)
    store().workspaceMeasured(NARROW)
    expect(shows()).toBe('chat')
    expect(selectInspectorHidden(store())).toBe(true)
    store().collapseToggled()
    expect(shows()).toBe('inspector')
    expect(selectInspectorHidden(store())).toBe(false)
    store().collapseToggled()
    expect(shows()).toBe('chat')
    // The user's choice of a shown inspector is not touched: wide again, the split is back, at its width.
    store().workspaceMeasured(WIDE)
    expect(shows()).toBe('both')
    expect(store().layout).toMatchObject({ collapsed: false, paneSize: 560 })
  })

  it('asking for the message box brings the chat back', () => {
    store().workspaceMeasured(NARROW)
    store().collapseToggled()
    store().chatShown()
    expect(shows()).toBe('chat')
  })

  it('a collapsed inspector, asked for in a narrow window, shows and stays shown when the window grows', () => {
    useInspectorStore.setState((s) => ({ layout: { ...s.layout, collapsed: true } }))
    store().workspaceMeasured(NARROW)
    expect(shows()).toBe('chat')
    store().collapseToggled()
    expect(shows()).toBe('inspector')
    store().workspaceMeasured(WIDE)
    expect(shows()).toBe('both')
    expect(store().layout.collapsed).toBe(false)
  })

  it('a window narrowed again opens on the chat, whichever showed last time', () => {
    store().workspaceMeasured(NARROW)
    store().collapseToggled()
    store().workspaceMeasured(WIDE)
    store().workspaceMeasured(NARROW)
    expect(shows()).toBe('chat')
  })

  it('docked below, both show at any width: the chat keeps the width', () => {
    store().dockChosen('bottom')
    store().workspaceMeasured(NARROW)
    expect(shows()).toBe('both')
    store().collapseToggled()
    expect(store().layout.collapsed).toBe(true)
  })
})
