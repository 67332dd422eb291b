/**
 * The chat and the inspector beside it in a space too narrow for both, or below it in one too short (decision 0048):
 * one shows at a time, the chat first; the inspector's bar, Hide and Mod+I switch between them; the split and its
 * size come back with the room.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { ONE_AT_A_TIME_BELOW_PX, ONE_AT_A_TIME_SHORTER_THAN_PX, selectInspectorHidden, selectWorkspaceShows, useInspectorStore } from '../../../src-renderer/state/inspector'

const store = useInspectorStore.getState
const shows = () => selectWorkspaceShows(store())
const NARROW = 600 // what an 800 px window leaves beside the sidebar
const WIDE = 1030 // a 1280 px one
const TALL = 756 // what a window 800 px tall leaves under the top bar
const SHORT = 556 // a window 600 px tall

describe('the workspace in a narrow window', () => {
  beforeEach(() =>
    useInspectorStore.setState({ workspaceWidth: null, workspaceHeight: null, aloneShown: 'chat', layout: { dock: 'right', paneSize: 560, paneHeight: 420, collapsed: false, listHeight: 180, contextMap: true } }),
  )

  it('shows both side by side while the chat and the pane fit at their least widths', () => {
    store().workspaceMeasured(WIDE, TALL)
    expect(shows()).toBe('both')
    store().workspaceMeasured(ONE_AT_A_TIME_BELOW_PX, TALL)
    expect(shows()).toBe('both')
    store().workspaceMeasured(ONE_AT_A_TIME_BELOW_PX - 1, TALL)
    expect(shows()).toBe('chat')
  })

  it('opens on the chat when the window narrows, the inspector a press away, and Hide goes back to the chat', () => {
    store().workspaceMeasured(WIDE, TALL)
    store().workspaceMeasured(NARROW, TALL)
    expect(shows()).toBe('chat')
    expect(selectInspectorHidden(store())).toBe(true)
    store().collapseToggled()
    expect(shows()).toBe('inspector')
    expect(selectInspectorHidden(store())).toBe(false)
    store().collapseToggled()
    expect(shows()).toBe('chat')
    // The user's choice of a shown inspector is not touched: wide again, the split is back, at its width.
    store().workspaceMeasured(WIDE, TALL)
    expect(shows()).toBe('both')
    expect(store().layout).toMatchObject({ collapsed: false, paneSize: 560 })
  })

  it('asking for the message box brings the chat back', () => {
    store().workspaceMeasured(NARROW, TALL)
    store().collapseToggled()
    store().chatShown()
    expect(shows()).toBe('chat')
  })

  it('a collapsed inspector, asked for in a narrow window, shows and stays shown when the window grows', () => {
    useInspectorStore.setState((s) => ({ layout: { ...s.layout, collapsed: true } }))
    store().workspaceMeasured(NARROW, TALL)
    expect(shows()).toBe('chat')
    store().collapseToggled()
    expect(shows()).toBe('inspector')
    store().workspaceMeasured(WIDE, TALL)
    expect(shows()).toBe('both')
    expect(store().layout.collapsed).toBe(false)
  })

  it('a window narrowed again opens on the chat, whichever showed last time', () => {
    store().workspaceMeasured(NARROW, TALL)
    store().collapseToggled()
    store().workspaceMeasured(WIDE, TALL)
    store().workspaceMeasured(NARROW, TALL)
    expect(shows()).toBe('chat')
  })

  it('docked below in a tall space, both show at any width: the chat keeps the width', () => {
    store().dockChosen('bottom')
    store().workspaceMeasured(NARROW, TALL)
    expect(shows()).toBe('both')
    store().collapseToggled()
    expect(store().layout.collapsed).toBe(true)
  })
})

describe('the workspace docked below in a short window', () => {
  beforeEach(() =>
    useInspectorStore.setState({ workspaceWidth: null, workspaceHeight: null, aloneShown: 'chat', layout: { dock: 'bottom', paneSize: 560, paneHeight: 300, collapsed: false, listHeight: 180, contextMap: true } }),
  )

  it('stacks both while the chat and a useful inspector fit at their least heights, at any width', () => {
    store().workspaceMeasured(WIDE, TALL)
    expect(shows()).toBe('both')
    store().workspaceMeasured(WIDE, ONE_AT_A_TIME_SHORTER_THAN_PX)
    expect(shows()).toBe('both')
    store().workspaceMeasured(WIDE, ONE_AT_A_TIME_SHORTER_THAN_PX - 1)
    expect(shows()).toBe('chat')
    // Beside, the height does not count: a wide short window keeps the split.
    store().dockChosen('right')
    expect(shows()).toBe('both')
  })

  it('an 800×600 window shows one at a time; 1024×768 and 700 px tall ones (as the tests dock below at 900×700 and 1000×700) stack both', () => {
    store().workspaceMeasured(NARROW, SHORT)
    expect(shows()).toBe('chat')
    store().workspaceMeasured(774, 724)
    expect(shows()).toBe('both')
    store().workspaceMeasured(650, 656)
    expect(shows()).toBe('both')
  })

  it('opens on the chat when the window is made short, the inspector a press away, and Hide goes back to the chat', () => {
    store().workspaceMeasured(WIDE, TALL)
    store().workspaceMeasured(WIDE, SHORT)
    expect(shows()).toBe('chat')
    expect(selectInspectorHidden(store())).toBe(true)
    store().collapseToggled()
    expect(shows()).toBe('inspector')
    expect(selectInspectorHidden(store())).toBe(false)
    store().collapseToggled()
    expect(shows()).toBe('chat')
    store().collapseToggled()
    store().chatShown()
    expect(shows()).toBe('chat')
    // Tall again: the stack is back, at the height the user gave the pane.
    store().workspaceMeasured(WIDE, TALL)
    expect(shows()).toBe('both')
    expect(store().layout).toMatchObject({ collapsed: false, paneHeight: 300 })
  })

  it('a window made short again opens on the chat, whichever showed last time', () => {
    store().workspaceMeasured(WIDE, SHORT)
    store().collapseToggled()
    store().workspaceMeasured(WIDE, TALL)
    store().workspaceMeasured(WIDE, SHORT)
    expect(shows()).toBe('chat')
  })

  it('docked below from the inspector in a window too short for both, the inspector stays, alone', () => {
    store().dockChosen('right')
    store().workspaceMeasured(WIDE, SHORT)
    expect(shows()).toBe('both')
    store().dockChosen('bottom')
    expect(shows()).toBe('inspector')
    // And beside again, where both fit, the split is back.
    store().dockChosen('right')
    expect(shows()).toBe('both')
  })
})
