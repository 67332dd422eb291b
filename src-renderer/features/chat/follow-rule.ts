/**
 * When the chat follows its newest output and when it stops: the rule behind useFollowNewest (follow.ts), apart from
 * the page, so that a sequence of scroll events, changes to the content and the user's input can be played to it.
 *
 * The user takes the view away from the newest: a wheel, a key, a touch, the scroll bar dragged, a search in the
 * page, or a move the app makes at their word (a pass they chose in the inspector, earlier entries they asked for).
 * The browser moves the view on its own too. Content that gets shorter under a view at its end (an approval card
 * answered and replaced by its call's one-line row) clamps the view to the new end, and when that happens in a
 * layout read between two frames, the scroll event that reports it comes at the next frame, by which time more may
 * have been written below (the call's result, the next answer streaming in). That event finds the view above the end
 * with nobody having scrolled; read as the user's, it stopped the chat following (seen in a window reloaded while
 * another window answered its approval). So a move away from the end that comes after the content changed, with no
 * input of the user's to explain it, puts the view back at the end instead.
 *
 * A move with nothing changed in the content since the view was last looked at cannot be a clamp: it is someone's
 * scrolling, whatever made it (a screen reader, the page's find, a script driving the page), and stops following.
 */

/** How far from the bottom (px) still counts as at it: a user who scrolls down to within this follows again. */
export const NEAR_BOTTOM = 32

/**
 * How long (ms) after the user's last input a move of the view is still theirs. The browser scrolls a wheel's or a
 * key's move smoothly over a few frames, and the first scroll event comes at the next frame, which a busy page draws
 * late; a glide goes on after the finger has left the screen, each of its moves making the time longer.
 */
export const USER_MOVE_MS = 1000

/** Where the view is: the scrolling box's `scrollTop`, `scrollHeight` and `clientHeight`. */
export interface ViewAt {
  readonly top: number
  readonly height: number
  readonly viewHeight: number
}

export class FollowRule {
  /** True while the view follows the newest output. */
  following = true
  /** Where the view was when last looked at. */
  private lastTop = 0
  /** Where this rule's own move to the end left the view, until a scroll event finds it elsewhere. */
  private ownTop: number | null = null
  private userInputAt = Number.NEGATIVE_INFINITY
  private userHolding = false
  private contentChangedSinceLook = false

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The user did what scrolls the view (a wheel, a key), or the app is about to move it at their word. */
  userInput(): void {
    this.userInputAt = this.now()
  }

  /** While the user holds the pointer down in the chat, has a finger on the screen or searches the page, every move is theirs. */
  userHolds(holding: boolean): void {
    this.userHolding = holding
  }

  /** Something in the content was added, removed or changed: the browser may clamp the view before it is looked at. */
  contentChanged(): void {
    this.contentChangedSinceLook = true
  }

  /** The view was just put at its end, at `top`, by the app. */
  pinnedAt(top: number): void {
    this.ownTop = top
    this.lastTop = top
    this.contentChangedSinceLook = false
  }

  /** Whether the view is somewhere else than where it was last looked at. */
  movedSinceLook(top: number): boolean {
    return top !== this.lastTop
  }

  /**
   * The view is at `view` (a scroll event, or a resize that found it moved): updates `following`, and says whether
   * the view is to be put back at its end, where it was following when something else than the user moved it.
   */
  moved(view: ViewAt): 'back to the end' | null {
    const movedUp = view.top < this.lastTop - 1
    this.lastTop = view.top
    const browserMayHaveMoved = this.contentChangedSinceLook
    this.contentChangedSinceLook = false
    // This rule's own move, its scroll event come a frame later when more may have been written below: no news.
    if (view.top === this.ownTop) return null
    this.ownTop = null
    const byUser = this.userHolding || this.now() - this.userInputAt < USER_MOVE_MS
    // A move the user set going goes on after their input (a smooth scroll, a glide): theirs to its end.
    if (byUser) this.userInput()
    const gap = view.height - view.top - view.viewHeight
    // At the very end (the browser clamps the view there when the content shrinks), or scrolled down to near it,
    // it follows; a move up away from the end, however small, stops it.
    if (gap <= 1 || (gap <= NEAR_BOTTOM && !movedUp)) {
      this.following = true
      return null
    }
    if (byUser || !browserMayHaveMoved) {
      this.following = false
      return null
    }
    return this.following ? 'back to the end' : null
  }
}
