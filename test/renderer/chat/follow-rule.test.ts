/**
 * When the chat follows its newest output (follow-rule.ts), played as the page plays it: the hook's own moves to the
 * end, changes to the content, scroll events that read the view a frame late, and the user's input.
 */
import { describe, expect, it } from 'vitest'
import { FollowRule, USER_MOVE_MS } from '../../../src-renderer/features/chat/follow-rule'

/** A chat 500 px tall, the rule given a clock the test moves. */
function chat() {
  let now = 10_000
  const rule = new FollowRule(() => now)
  return {
    rule,
    later: (ms: number) => (now += ms),
    /** The hook's move to the end of content `height` px tall. */
    pin: (height: number) => rule.pinnedAt(height - 500),
    /** A scroll event, or a resize that found the view moved, reading it at `top` in content `height` px tall. */
    read: (top: number, height: number) => rule.moved({ top, height, viewHeight: 500 }),
  }
}

describe('a view following the newest', () => {
  it('stays following when content shrinks under it and grows again before the clamp is read', () => {
    const { rule, later, pin, read } = chat()
    pin(3000)
    later(USER_MOVE_MS * 5)
    // An approval card 200 px tall answered, and a layout read before the next frame: the view is clamped from 2500
    // to the new end, 2300. The call's result, 120 px, is written before that frame reports the clamp.
    rule.contentChanged()
    rule.contentChanged()
    expect(read(2300, 2920)).toBe('back to the end')
    expect(rule.following).toBe(true)
  })

  it('follows when the clamp is read before anything else is written', () => {
    const { rule, pin, read } = chat()
    pin(3000)
    rule.contentChanged()
    expect(read(2300, 2800)).toBeNull()
    expect(rule.following).toBe(true)
  })

  it("ignores its own move's scroll event, come after more was written", () => {
    const { rule, pin, read } = chat()
    pin(3000)
    rule.contentChanged()
    expect(read(2500, 3100)).toBeNull()
    expect(rule.following).toBe(true)
  })

  it('stops following when the user scrolls up (a key, a wheel) while the answer streams, even a little', () => {
    const { rule, later, pin, read } = chat()
    pin(3000)
    later(USER_MOVE_MS * 5)
    rule.userInput()
    later(40)
    rule.contentChanged()
    expect(read(2480, 3040)).toBeNull()
    expect(rule.following).toBe(false)
  })

  it("reads a move long after the user's last input, the content changed, as the browser's", () => {
    const { rule, later, pin, read } = chat()
    pin(3000)
    rule.userInput()
    later(USER_MOVE_MS + 1)
    rule.contentChanged()
    expect(read(2300, 2920)).toBe('back to the end')
    expect(rule.following).toBe(true)
  })

  it('reads a move with nothing changed in the content as someone scrolling (a screen reader, the page\'s find)', () => {
    const { rule, later, pin, read } = chat()
    pin(3000)
    later(USER_MOVE_MS * 5)
    expect(read(1200, 3000)).toBeNull()
    expect(rule.following).toBe(false)
  })

  it("keeps a smooth scroll's later moves the user's, however long it goes on, as the answer streams", () => {
    const { rule, later, pin, read } = chat()
    pin(3000)
    rule.userInput()
    for (let top = 2450; top >= 1500; top -= 50) {
      later(USER_MOVE_MS / 2)
      rule.contentChanged()
      expect(read(top, 3000)).toBeNull()
    }
    expect(rule.following).toBe(false)
  })

  it("takes every move while the scroll bar is held as the user's, until it is let go", () => {
    const { rule, later, pin, read } = chat()
    pin(3000)
    rule.userHolds(true)
    later(USER_MOVE_MS * 3)
    rule.contentChanged()
    expect(read(2000, 3000)).toBeNull()
    expect(rule.following).toBe(false)
    // Dragged back to the end: following again. Let go, and a clamp a while after is the browser's.
    expect(read(2500, 3000)).toBeNull()
    expect(rule.following).toBe(true)
    rule.userHolds(false)
    later(USER_MOVE_MS + 1)
    rule.contentChanged()
    expect(read(2300, 2900)).toBe('back to the end')
    expect(rule.following).toBe(true)
  })

  it("takes a move the app makes at the user's word (a pass chosen in the inspector) as theirs, as the answer streams", () => {
    const { rule, later, pin, read } = chat()
    pin(3000)
    later(USER_MOVE_MS * 5)
    rule.userInput()
    rule.contentChanged()
    expect(read(800, 3000)).toBeNull()
    expect(rule.following).toBe(false)
  })
})

describe('a view the user scrolled up', () => {
  it('stays where it is when the browser moves it, and follows again at the end', () => {
    const { rule, later, pin, read } = chat()
    pin(3000)
    rule.userInput()
    read(1000, 3000)
    expect(rule.following).toBe(false)
    later(USER_MOVE_MS * 5)
    // Content shrinking under it moves it without the user: it is not pulled down.
    rule.contentChanged()
    expect(read(900, 2600)).toBeNull()
    expect(rule.following).toBe(false)
    // Clamped at the very end, or scrolled down to near it: following again.
    expect(read(2100, 2600)).toBeNull()
    expect(rule.following).toBe(true)
    rule.userInput()
    read(1500, 2600)
    expect(rule.following).toBe(false)
    rule.userInput()
    expect(read(2080, 2600)).toBeNull()
    expect(rule.following).toBe(true)
  })
})
