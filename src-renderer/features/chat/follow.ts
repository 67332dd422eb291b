import { createContext, useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react'

/** How far from the bottom (px) still counts as at it: a user who scrolls down to within this follows again. */
const NEAR_BOTTOM = 32

export interface FollowNewest {
  /** True while the view follows the newest output; false once the user has scrolled up from it. */
  readonly following: boolean
  /** Back to the newest, following it again ("Jump to latest", a message sent). */
  jumpToLatest(): void
}

/**
 * The chat follows the newest output (a streamed answer, a tool call, an approval card, the chat's height changing
 * under it as the inspector moves) only while the user is at or near the bottom. Once they scroll up, to read what
 * came before or to a pass chosen in the inspector, the view stays where they put it until they come back down,
 * or jump back.
 *
 * `scroller` is the scrolling box, `content` what it holds: any change of either's size re-pins a following view.
 */
export function useFollowNewest(scroller: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>): FollowNewest {
  const [following, setFollowingState] = useState(true)
  const followingNow = useRef(true)
  const setFollowing = useCallback(
    (value: boolean) => {
      followingNow.current = value
      setFollowingState(value)
      // The browser's scroll anchoring keeps what is in view in place when the content above it changes height (the
      // chat made wider or narrower, earlier entries drawn): what a reader scrolled up wants, but while following it
      // would move the view away from the bottom as if the user had scrolled. Pinned to the bottom here instead.
      if (scroller.current) scroller.current.style.overflowAnchor = value ? 'none' : ''
    },
    [scroller],
  )
  // Where this hook's own last scroll left the view. Its scroll event comes a frame later, when more may have been
  // written below: an event that finds the view still there is ours, not the user's, and changes nothing.
  const ownTop = useRef<number | null>(null)
  const lastTop = useRef(0)

  const toBottom = useCallback(() => {
    const box = scroller.current
    if (!box) return
    box.scrollTop = box.scrollHeight
    ownTop.current = box.scrollTop
    lastTop.current = box.scrollTop
  }, [scroller])

  useLayoutEffect(() => {
    const box = scroller.current
    if (!box) return
    const onScroll = () => {
      const top = box.scrollTop
      const movedUp = top < lastTop.current - 1
      lastTop.current = top
      if (top === ownTop.current) return
      ownTop.current = null
      const gap = box.scrollHeight - top - box.clientHeight
      // At the very end (the browser clamps the view there when the content shrinks), or scrolled down to near it,
      // it follows; any move up away from the end, however small, stops it.
      setFollowing(gap <= 1 || (gap <= NEAR_BOTTOM && !movedUp))
    }
    // A wheel turned up means "let me read": said at once, before the next streamed delta could pull the view down.
    // Not when it scrolls a box inside the chat (a long code block) instead.
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY < 0 && box.scrollTop > 0 && !scrollsInside(e.target, box)) setFollowing(false)
    }
    const observer = new ResizeObserver(() => {
      // Moved since this hook last looked, and its scroll event not come yet (a pass chosen in the inspector is
      // scrolled to in the same frame as its earlier entries are drawn): that move is read first, or the view would
      // be pulled back down from where it was just put.
      if (box.scrollTop !== lastTop.current) onScroll()
      // Everything fits now (entries taken back, a window made taller): there is nothing to scroll up from, so the
      // view follows again; no scroll event says so when the top was already 0.
      else if (!followingNow.current && box.scrollHeight <= box.clientHeight) setFollowing(true)
      if (followingNow.current) toBottom()
    })
    observer.observe(box)
    if (content.current) observer.observe(content.current)
    box.addEventListener('scroll', onScroll, { passive: true })
    box.addEventListener('wheel', onWheel, { passive: true })
    // A session opens on its newest.
    box.style.overflowAnchor = followingNow.current ? 'none' : ''
    toBottom()
    return () => {
      observer.disconnect()
      box.removeEventListener('scroll', onScroll)
      box.removeEventListener('wheel', onWheel)
    }
  }, [scroller, content, toBottom, setFollowing])

  const jumpToLatest = useCallback(() => {
    setFollowing(true)
    toBottom()
  }, [setFollowing, toBottom])

  return { following, jumpToLatest }
}

/** Whether a wheel turned up over `target` scrolls a box between it and `box` (one that can still go up). */
function scrollsInside(target: EventTarget | null, box: HTMLElement): boolean {
  for (let el = target instanceof Element ? target : null; el && el !== box; el = el.parentElement) {
    if (el.scrollTop > 0 && el.scrollHeight > el.clientHeight && /auto|scroll/.test(getComputedStyle(el).overflowY)) return true
  }
  return false
}

/**
 * The chat's "back to the newest, following it" (FollowNewest.jumpToLatest), for what below it must be seen whole
 * when it appears: an approval card, the newest thing in the chat, whose buttons the agent waits on.
 */
export const RevealNewest = createContext<() => void>(() => {})
