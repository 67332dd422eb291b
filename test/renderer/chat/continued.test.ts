import { describe, expect, it } from 'vitest'
import { continuedText } from '../../../src-renderer/features/chat/continued'

describe('the divider of a continued conversation', () => {
  it('names the model the imported conversation used and the one Loupe goes on with, when they differ', () => {
    expect(continuedText('claude-opus-4-6', 'claude-sonnet-4-6')).toBe(
      "Continued in Loupe from here; the conversation above was Claude Code's, on claude-opus-4-6. Loupe goes on with claude-sonnet-4-6 (its model for new sessions) and its own system prompt and tools, so its first pass writes the whole conversation to the cache.",
    )
  })

  it('does not call the same model a choice, and says only what it knows', () => {
    expect(continuedText('claude-opus-4-6', 'claude-opus-4-6')).not.toMatch(/model for new sessions/)
    expect(continuedText(null, 'claude-opus-4-6')).toMatch(/^Continued in Loupe from here; the conversation above was Claude Code's\. Loupe goes on with claude-opus-4-6 and/)
    expect(continuedText(null, '')).toBe("Continued in Loupe from here; the conversation above was Claude Code's.")
  })
})
