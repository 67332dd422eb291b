/** The sidebar's sessions while the pointer is over the list: the order they had when it came (decision 0070). */
import { describe, expect, it } from 'vitest'
import { inHeldOrder } from '../../../src-renderer/features/projects/held-order'

const listed = (...ids: string[]) => ids.map((id) => ({ id }))
const ids = (sessions: ReadonlyArray<{ id: string }>) => sessions.map((s) => s.id)

describe('inHeldOrder', () => {
  it("is the store's order when nothing is held", () => {
    const sessions = listed('c', 'a', 'b')
    expect(inHeldOrder(sessions, null)).toBe(sessions)
  })

  it('keeps the rows held in the order they had, whatever moved in the store since', () => {
    expect(ids(inHeldOrder(listed('a', 'c', 'b'), ['c', 'b', 'a']))).toEqual(['c', 'b', 'a'])
  })

  it('lists a session new since first, in the order the store gives, and leaves out one gone since', () => {
    expect(ids(inHeldOrder(listed('e', 'a', 'd', 'c'), ['c', 'b', 'a']))).toEqual(['e', 'd', 'c', 'a'])
  })
})
