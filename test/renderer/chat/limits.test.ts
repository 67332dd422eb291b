/** What the chat says of a message over the contract's limit, before it is sent. */
import { describe, expect, it } from 'vitest'
import { tooLongMessage } from '../../../src-renderer/features/chat/limits'
import { MAX_TEXT_CHARS } from '../../../src-preload/contract'

describe('tooLongMessage', () => {
  it('says nothing of a message within the limit', () => {
    expect(tooLongMessage(1)).toBeNull()
    expect(tooLongMessage(MAX_TEXT_CHARS)).toBeNull()
  })

  it('says how long the message is and how long it may be, in plain words', () => {
    expect(tooLongMessage(2_100_000)).toBe(
      'This message is 2.1 M characters; a message can be at most 2 M. Shorten it, or save the text to a file in the project and ask the agent to read it.',
    )
  })

  it('is exact enough that the two figures never read the same', () => {
    expect(tooLongMessage(2_000_001)).toMatch(/^This message is 2\.000001 M characters; a message can be at most 2 M\./)
    expect(tooLongMessage(2_040_000)).toMatch(/^This message is 2\.04 M characters/)
    expect(tooLongMessage(12_000_000)).toMatch(/^This message is 12 M characters/)
    expect(tooLongMessage(1_600_000, 1_500_000)).toMatch(/^This message is 1\.6 M characters; a message can be at most 1\.5 M\./)
  })
})
