/**
 * A draft the main process would refuse to save is known as such in the view, before it is priced or saved, with the
 * limit the prompt builder enforces (one constant, shared through the contract) counted in UTF-8 bytes.
 */
import { describe, expect, it } from 'vitest'
import { MAX_INSTRUCTION_FILE_BYTES } from '../../../src-preload/contract'
import { MAX_INSTRUCTION_FILE_BYTES as ENGINE_LIMIT } from '../../../src-main/engine/prompt'
import { retryMayHelp, unsavableDraft, utf8Bytes } from '../../../src-renderer/features/files/draft-limits'

describe('unsavableDraft', () => {
  it('uses the prompt builder\'s own limit', () => {
    expect(MAX_INSTRUCTION_FILE_BYTES).toBe(ENGINE_LIMIT)
  })

  it('says a text over 1 MB cannot be saved, with its size and by how much to shorten it', () => {
    const text = 'x'.repeat(1_100_034)
    expect(unsavableDraft(text)).toEqual({ kind: 'too_large', message: expect.stringContaining('1,100,034 bytes'), short: 'it is over the 1 MB the prompt builder reads of a file' })
    expect(unsavableDraft(text)!.message).toContain(`Shorten it by ${(1_100_034 - MAX_INSTRUCTION_FILE_BYTES).toLocaleString('en-US')} bytes`)
    expect(unsavableDraft('x'.repeat(MAX_INSTRUCTION_FILE_BYTES))).toBeNull()
  })

  it('counts UTF-8 bytes, not UTF-16 units: a text of fewer characters than the limit may still be over it', () => {
    const accents = 'é'.repeat(MAX_INSTRUCTION_FILE_BYTES / 2 + 1)
    expect(accents.length).toBeLessThan(MAX_INSTRUCTION_FILE_BYTES)
    expect(utf8Bytes(accents)).toBe(MAX_INSTRUCTION_FILE_BYTES + 2)
    expect(unsavableDraft(accents)?.kind).toBe('too_large')
    expect(utf8Bytes('😀')).toBe(4)
  })

  it('says a NUL character cannot be saved', () => {
    expect(unsavableDraft('a\0b')?.kind).toBe('nul')
    expect(unsavableDraft('# Rules\n')).toBeNull()
  })
})

describe('retryMayHelp', () => {
  it('is true only where saving the same text again may succeed', () => {
    expect(retryMayHelp('io_error')).toBe(true)
    expect(retryMayHelp('busy')).toBe(true)
    expect(retryMayHelp('invalid_input')).toBe(false)
    expect(retryMayHelp('permission_denied')).toBe(false)
    expect(retryMayHelp('conflict')).toBe(false)
  })
})
