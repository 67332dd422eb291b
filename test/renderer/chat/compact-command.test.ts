/**
 * A `/compact` cancelled from the chat records nothing of what the user typed: its text comes back to the message
 * box, before what was typed there since. Under Node, with the contract's client held by the test.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { answerHeld, held } from '../../support/held-client'

vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)

const { sendMessage, runEnded } = await import('../../../src-renderer/features/chat/actions')
const { boxAfterCancelledCompact, isCompactCommand } = await import('../../../src-renderer/features/chat/compact-command')
const { useDraftsStore } = await import('../../../src-renderer/state/drafts')
const box = () => useDraftsStore.getState().bySession.s ?? ''

async function send(text: string, runId: string): Promise<void> {
  const sending = sendMessage('s', text)
  answerHeld('run.start', { sessionId: 's' }, { runId })
  expect(await sending).toBe(true)
  useDraftsStore.getState().draftSent('s', text)
}

beforeEach(() => {
  held.length = 0
  useDraftsStore.setState({ bySession: {} })
})

describe('a cancelled /compact', () => {
  it('gives its text back to the message box', async () => {
    await send('/compact keep the API decisions', 'r1')
    expect(box()).toBe('')
    runEnded('r1', 'cancelled')
    expect(box()).toBe('/compact keep the API decisions')
  })

  it('keeps what was typed since, after a blank line', async () => {
    await send('/compact keep the API decisions', 'r2')
    useDraftsStore.getState().draftChanged('s', 'and then the tests')
    runEnded('r2', 'cancelled')
    expect(box()).toBe('/compact keep the API decisions\n\nand then the tests')
  })

  it('gives nothing back when it compacted, or for a message that was not a /compact', async () => {
    await send('/compact', 'r3')
    runEnded('r3', 'compacted')
    await send('read README.md', 'r4')
    runEnded('r4', 'cancelled')
    expect(box()).toBe('')
    expect(isCompactCommand('/compaction please')).toBe(false)
    expect(boxAfterCancelledCompact('  ', '/compact')).toBe('/compact')
  })
})
