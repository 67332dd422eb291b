import { createContext, useCallback, useLayoutEffect, useState, type RefObject } from 'react'
import { FollowRule } from './follow-rule'

export interface FollowNewest {
  /** True while the view follows the newest output; false once the user has scrolled up from it. */
  readonly following: boolean
  /** Back to the newest, following it again ("Jump to latest", a message sent). */
  jumpToLatest(): void
  /** The move of the view the app is about to make is the user's doing (UserMovesView). */
  userMovesView(): void
}

/**
 * The chat follows the newest output (a streamed answer, a tool call, an approval card, the chat's height changing
 * under it as the inspector moves) only while the user is at or near the bottom. Once they scroll up, to read what
 * came before or to a pass chosen in the inspector, the view stays where they put it until they come back down,
 * or jump back. Only the user's own moves stop it (follow-rule.ts): the browser's, as content shrinks, do not.
 *
 * `scroller` is the scrolling box, `content` what it holds: any change of either's size re-pins a following view.
 */
export function useFollowNewest(scroller: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>): FollowNewest {
  const [rule] = useState(() => new FollowRule())
  const [following, setFollowingState] = useState(true)
  // What the rule says, shown: the pill, and the scroll anchoring that suits it.
  const show = useCallback(() => {
    setFollowingState(rule.following)
    // The browser's scroll anchoring keeps what is in view in place when the content above it changes height (the
    // chat made wider or narrower, earlier entries drawn): what a reader scrolled up wants, but while following it
    // would move the view away from the bottom. Pinned to the bottom here instead.
    if (scroller.current) scroller.current.style.overflowAnchor = rule.following ? 'none' : ''
  }, [rule, scroller])
  const setFollowing = useCallback(
    (value: boolean) => {
      rule.following = value
      show()
    },
    [rule, show],
  )

  const toBottom = useCallback(() => {
    const box = scroller.current
    if (!box) return
    box.scrollTop = box.scrollHeight
    rule.pinnedAt(box.scrollTop)
  }, [rule, scroller])

  useLayoutEffect(() => {
    const box = scroller.current
    if (!box) return
    const onScroll = () => {
      const back = rule.moved({ top: box.scrollTop, height: box.scrollHeight, viewHeight: box.clientHeight })
      show()
      if (back) toBottom()
    }
    // A wheel turned up means "let me read": said at once, before the next streamed delta could pull the view down.
    // Not when it scrolls a box inside the chat (a long code block) instead.
    const onWheel = (e: WheelEvent) => {
      rule.userInput()
      if (e.deltaY < 0 && box.scrollTop > 0 && !scrollsInside(e.target, box)) setFollowing(false)
    }
    // The pointer held down in the chat (on its scroll bar, or selecting text past its edge), a finger on the screen,
    // the page's find bar open: every move until they end is the user's.
    let pointerHeld = false
    let touching = false
    let searching = false
    const holds = () => rule.userHolds(pointerHeld || touching || searching)
    const onKeyDown = (e: KeyboardEvent) => {
      searching = isFindKey(e)
      holds()
      if (scrollsFromKey(e)) rule.userInput()
    }
    const onPointerDown = (e: PointerEvent) => {
      pointerHeld = e.target instanceof Node && box.contains(e.target)
      searching = false
      holds()
    }
    // Let go, the pointer moves nothing more (a click on a button in the chat, "Approve once", is no move of the view).
    const onPointerUp = () => {
      pointerHeld = false
      holds()
    }
    const onTouch = (e: TouchEvent) => {
      touching = e.type === 'touchstart'
      holds()
      // The view glides on after the finger leaves the screen.
      if (!touching) rule.userInput()
    }
    // The page has the keyboard back: the find bar, if open, is closed or left.
    const onFocus = () => {
      searching = false
      holds()
    }
    const changes = new MutationObserver(() => rule.contentChanged())
    const observer = new ResizeObserver(() => {
      // Moved since this hook last looked, and its scroll event not come yet (a pass chosen in the inspector is
      // scrolled to in the same frame as its earlier entries are drawn): that move is read first, or the view would
      // be pulled back down from where it was just put.
      if (rule.movedSinceLook(box.scrollTop)) onScroll()
      // Everything fits now (entries taken back, a window made taller): there is nothing to scroll up from, so the
      // view follows again; no scroll event says so when the top was already 0.
      else if (!rule.following && box.scrollHeight <= box.clientHeight) setFollowing(true)
      if (rule.following) toBottom()
    })
    observer.observe(box)
    if (content.current) {
      observer.observe(content.current)
      changes.observe(content.current, { subtree: true, childList: true, characterData: true, attributes: true })
    }
    box.addEventListener('scroll', onScroll, { passive: true })
    box.addEventListener('wheel', onWheel, { passive: true })
    box.addEventListener('touchstart', onTouch, { passive: true })
    // Keys scroll the chat from wherever the keyboard is in it, or from the page when it is nowhere.
    window.addEventListener('keydown', onKeyDown, { capture: true })
    window.addEventListener('pointerdown', onPointerDown, { capture: true })
    window.addEventListener('pointerup', onPointerUp, { capture: true })
    window.addEventListener('pointercancel', onPointerUp, { capture: true })
    window.addEventListener('touchend', onTouch, { capture: true })
    window.addEventListener('touchcancel', onTouch, { capture: true })
    window.addEventListener('focus', onFocus)
    // A session opens on its newest.
    show()
    toBottom()
    return () => {
      observer.disconnect()
      changes.disconnect()
      box.removeEventListener('scroll', onScroll)
      box.removeEventListener('wheel', onWheel)
      box.removeEventListener('touchstart', onTouch)
      window.removeEventListener('keydown', onKeyDown, { capture: true })
      window.removeEventListener('pointerdown', onPointerDown, { capture: true })
      window.removeEventListener('pointerup', onPointerUp, { capture: true })
      window.removeEventListener('pointercancel', onPointerUp, { capture: true })
      window.removeEventListener('touchend', onTouch, { capture: true })
      window.removeEventListener('touchcancel', onTouch, { capture: true })
      window.removeEventListener('focus', onFocus)
    }
  }, [rule, scroller, content, toBottom, setFollowing, show])

  const jumpToLatest = useCallback(() => {
    setFollowing(true)
    toBottom()
  }, [setFollowing, toBottom])
  const userMovesView = useCallback(() => rule.userInput(), [rule])

  return { following, jumpToLatest, userMovesView }
}

/** Whether a wheel turned up over `target` scrolls a box between it and `box` (one that can still go up). */
function scrollsInside(target: EventTarget | null, box: HTMLElement): boolean {
  for (let el = target instanceof Element ? target : null; el && el !== box; el = el.parentElement) {
    if (el.scrollTop > 0 && el.scrollHeight > el.clientHeight && /auto|scroll/.test(getComputedStyle(el).overflowY)) return true
  }
  return false
}

/** Keys that scroll the view, or move the keyboard to what it then brings into view (Tab, the arrows between answers). */
const SCROLLING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ', 'Tab'])

/** Where the keys move a caret or a choice, not the view. */
const FIELDS = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])'
/** What Space presses or chooses (a button, an answer of the chat) rather than scrolling the view. */
const TAKES_SPACE = 'button, a[href], summary, [role], [tabindex]:not([tabindex="-1"])'

/**
 * Whether the key scrolls the page from where it is pressed: not in a field, nor Space on a control (an approval
 * answered with the keyboard is no move of the user's).
 */
function scrollsFromKey(e: KeyboardEvent): boolean {
  if (!SCROLLING_KEYS.has(e.key)) return false
  if (e.key === 'Tab') return true
  const target = e.target instanceof Element ? e.target : null
  if (target?.closest(FIELDS)) return false
  return e.key !== ' ' || !target?.matches(TAKES_SPACE)
}

/** The browser's find in page: Ctrl+F (⌘F), and F3 or Ctrl+G (⌘G) for the next match. */
function isFindKey(e: KeyboardEvent): boolean {
  return e.key === 'F3' || ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === 'f' || e.key === 'g'))
}

/**
 * The chat's "back to the newest, following it" (FollowNewest.jumpToLatest), for what below it must be seen whole
 * when it appears: an approval card, the newest thing in the chat, whose buttons the agent waits on.
 */
export const RevealNewest = createContext<() => void>(() => {})

/**
 * The chat's FollowNewest.userMovesView, called just before a move of the view made at the user's word and not by
 * their own scrolling (a pass they chose in the inspector scrolled to, earlier entries they asked for held in place):
 * a move away from the newest that stops the chat following it, as their scrolling would.
 */
export const UserMovesView = createContext<() => void>(() => {})
