/**
 * The price panel's words: applied now, the edit's own effect on the session block is told apart from what applying
 * now sends anyway (a change on disk, a note already due that a file changed), so a draft that adds a line never
 * reads as "sends 28 fewer tokens".
 */
import { describe, expect, it } from 'vitest'
import { appliedNowWords, laterWords, nowWords, ownTokensNow, savedWithoutSessionWords, unappliedWords, withoutSessionWords } from '../../../src-renderer/features/files/price-words'
import type { EditPriceView } from '../../../src-renderer/state/files'
import { missLost } from '../../../src-renderer/features/cache/model/timeline'
import { usd } from '../../../src-renderer/ui/format'

const price = (over: Partial<EditPriceView>): EditPriceView => ({
  movedBlock: { path: 'system[1]', label: 'system[1] · session block (project instructions · AGENTS.md)' },
  rebilledTokens: 464,
  nextPassUsd: 0.0035,
  withoutEditUsd: 0.0016,
  deltaUsd: 0.0019,
  cacheWarm: true,
  addedTokens: 0,
  exact: true,
  label: 'moves system[1]: the next pass re-bills 464 tokens (+$0.0019)',
  ...over,
})

describe('nowWords', () => {
  it('rounds its headline once from the exact difference, the loss the Cache view then shows, and writes the sentence so it adds up', () => {
    // $0.00177 against $0.00083: the exact difference, $0.00094, all of it re-billed, is what the pass after it loses.
    // Rounded each ($0.0018, $0.0008) and subtracted it would read +$0.0010, where the Cache view says lost $0.0009.
    const words = nowWords(price({ nextPassUsd: 0.00177, withoutEditUsd: 0.00083, deltaUsd: 0.00094, rebilledUsd: 0.00094 }), null)
    const cacheViewLoss = missLost({ missUsd: 0.00094, cause: 'changed_block' }, usd)
    expect(cacheViewLoss).toBe('lost $0.0009')
    expect(words.summary).toMatch(/^\+\$0\.0009 · /)
    expect(words.detail.at(-1)).toBe('Next pass $0.00177 instead of $0.00083 (+$0.0009: $0.0009 the cache lost).')
    // Two sides whose rounding does not move the difference are written as everywhere else.
    expect(nowWords(price({ nextPassUsd: 0.0035, withoutEditUsd: 0.0016, deltaUsd: 0.0019 }), null).detail.at(-1)).toBe('Next pass $0.0035 instead of $0.0016 (+$0.0019).')
  })

  it('states the edit’s own tokens, and the note already due apart from them', () => {
    // "Prefer pnpm." adds 4 tokens to the block; a 32-token note that AGENTS.md changed was already due, and applying
    // now drops it: the request is 28 tokens shorter in all.
    const now = price({ addedTokens: -28 })
    const base = price({ addedTokens: -32 })
    expect(ownTokensNow(now, base)).toBe(4)
    const words = nowWords(now, base).detail.join(' ')
    expect(words).toContain('The edit itself makes the session block 4 tokens larger.')
    expect(words).toContain('drops the note already due that a file changed: 32 tokens fewer of its own, 28 fewer in all.')
    expect(words).not.toMatch(/sends 28 fewer/)
    expect(nowWords(now, base).summary).toBe('+$0.0019 · re-bills 464 tokens')
  })

  it('says which part of the price is the loss the Cache view will count, and which the text the edit adds', () => {
    // The review's case: CLAUDE.md applied now, 2,960 tokens re-billed at $3.75 over $0.30 a MTok on Sonnet 4.6 (the
    // pass after it "lost $0.0102: 2,960 tokens") and 18 tokens of the edit's own written at $3.75.
    const now = price({ rebilledTokens: 2960, rebilledUsd: (2960 * 3.45) / 1e6, nextPassUsd: 0.0119, withoutEditUsd: 0.0016, deltaUsd: 0.0103, addedTokens: 18 })
    const words = nowWords(now, null)
    // The line beside the choice stays short (the narrow Files column keeps its editor's height); the detail splits it.
    expect(words.summary).toBe('+$0.0103 · re-bills 2,960 tokens')
    expect(words.detail.at(-1)).toBe('Next pass $0.0119 instead of $0.0016 (+$0.0103: $0.0102 the cache lost, +$0.0001 the rest).')
    // All of it the re-bill: no second part.
    expect(nowWords({ ...now, rebilledUsd: 0.0103 }, null).detail.at(-1)).toBe('Next pass $0.0119 instead of $0.0016 (+$0.0103: $0.0103 the cache lost).')
    // Text taken out (or a note dropped) makes the rest cheaper: a negative part, with no claim of what it is for.
    const shorter = price({ rebilledTokens: 786, rebilledUsd: 0.0027, nextPassUsd: 0.0042, withoutEditUsd: 0.0016, deltaUsd: 0.0026, addedTokens: -12 })
    expect(nowWords(shorter, null).detail.at(-1)).toBe('Next pass $0.0042 instead of $0.0016 (+$0.0026: $0.0027 the cache lost, −$0.0001 the rest).')
  })

  it('says nothing more when applying now sends nothing but the edit', () => {
    const words = nowWords(price({ addedTokens: 4 }), price({ addedTokens: 0, movedBlock: null })).detail
    expect(words).toEqual([
      'Moves system[1] · session block (project instructions · AGENTS.md): the next pass writes 464 tokens again instead of reading them.',
      'The edit itself makes the session block 4 tokens larger.',
      'Next pass $0.0035 instead of $0.0016 (+$0.0019).',
    ])
  })

  it('does not subtract two figures made on different bases, and says what the total holds', () => {
    const now = price({ addedTokens: -28 })
    expect(ownTokensNow(now, price({ addedTokens: -32, exact: false }))).toBeNull()
    expect(nowWords(now, null).detail.join(' ')).toContain('In all the next pass sends 28 fewer tokens: the edit, plus what changed on disk since the session block was read, less any note already due that a file changed.')
  })
})

describe('laterWords', () => {
  it('names the note the edit adds in the summary, and keeps the label’s words', () => {
    const later = price({ movedBlock: null, rebilledTokens: 0, addedTokens: 31, deltaUsd: 0.0001, label: 'nothing above the breakpoints moves: this edit adds a 31-token note that AGENTS.md changed to the next message (+$0.0001)' })
    expect(laterWords(later).summary).toBe('+$0.0001 · a 31-token note')
    expect(laterWords(later).detail[0]).toBe('Nothing above the breakpoints moves: this edit adds a 31-token note that AGENTS.md changed to the next message (+$0.0001).')
  })

  it('says beside the note what the edit costs at the compaction, so leaving it for later never reads as free', () => {
    const later = price({ movedBlock: null, rebilledTokens: 0, addedTokens: 31, deltaUsd: 0.0001, atCompaction: { tokens: 1_206, usd: 0.0041 } })
    expect(laterWords(later).summary).toBe('+$0.0001 · a 31-token note · +$0.0041 at the compaction')
    expect(laterWords({ ...later, atCompaction: { tokens: 1_206, usd: null } }).summary).toBe('+$0.0001 · a 31-token note · ≈1,206 tokens at the compaction')
  })
})

describe('with no session selected', () => {
  it('says that a session which has sent passes keeps the old text, pays for a note at its next message, and takes the edit at its next compaction', () => {
    for (const words of [withoutSessionWords('CLAUDE.md', 2), savedWithoutSessionWords('CLAUDE.md', 2)]) {
      expect(words).toMatch(/changed on disk/)
      expect(words).toMatch(/next compaction/)
      expect(words).not.toMatch(/at no extra cost/)
    }
    expect(withoutSessionWords('CLAUDE.md', 2)).toContain('a few tokens')
  })

  it('says the first session reads it at no extra cost when the project has none yet', () => {
    expect(withoutSessionWords('CLAUDE.md', 0)).toContain('first session reads the saved CLAUDE.md as it is, at no extra cost')
    expect(savedWithoutSessionWords('CLAUDE.md', 0)).not.toMatch(/changed on disk/)
  })
})

describe('files the session does not send yet', () => {
  it('names them, says the session keeps the old text, and prices applying them as re-billing the session block', () => {
    const warm = price({ movedBlock: { path: 'system[1]', label: 'system[1] · session block' }, rebilledTokens: 4321, cacheWarm: true, deltaUsd: 0.0123 })
    expect(unappliedWords(['AGENTS.md'], warm, false)).toEqual({
      what: 'AGENTS.md differs on disk from what the session sends.',
      cost: `Applying now: ${nowWords(warm, null).summary} on the next pass.`,
      why: 'The session keeps the text it read until its next compaction. Applying now reads the session block again from disk; the price is against leaving it for the next compaction.',
    })
    expect(unappliedWords(['AGENTS.md', 'CLAUDE.md'], null, false)).toEqual({
      what: 'AGENTS.md, CLAUDE.md differ on disk from what the session sends.',
      cost: 'Applying now makes the next pass write the session block and everything after it again.',
      why: 'The session keeps the text it read until its next compaction. Applying now reads the session block again from disk.',
    })
    expect(unappliedWords(['AGENTS.md'], warm, true).cost).toBe('Applying now waits for the session to be idle.')
  })

  it('says a file whose budget cut alone moved is sent cut, not that it differs on disk', () => {
    // AGENTS.md was saved longer; CLAUDE.md is as it was, but the instructions budget now cuts it shorter.
    const changes = [
      { path: 'AGENTS.md', kind: 'changed' as const },
      { path: 'CLAUDE.md', kind: 'cut_shorter' as const },
    ]
    expect(unappliedWords(['AGENTS.md', 'CLAUDE.md'], null, false, changes).what).toBe('AGENTS.md differs on disk from what the session sends; CLAUDE.md would be sent cut shorter by the instructions budget.')
    // Shrunk instead: the other file is sent longer.
    expect(unappliedWords(['AGENTS.md', 'CLAUDE.md', 'src/CLAUDE.md'], null, false, [{ path: 'AGENTS.md', kind: 'changed' }, { path: 'CLAUDE.md', kind: 'cut_longer' }, { path: 'src/CLAUDE.md', kind: 'cut_longer' }]).what).toBe(
      'AGENTS.md differs on disk from what the session sends; CLAUDE.md, src/CLAUDE.md would be sent cut longer by the instructions budget.',
    )
  })

  it('says an apply adds nothing to re-bill when the next pass already re-bills the session block, not "re-bills 0 tokens"', () => {
    // CLAUDE.md applied and not sent yet: applying AGENTS.md as well changes the price a little and re-bills no more.
    const already = price({ movedBlock: { path: 'system[1]', label: 'system[1] · session block' }, rebilledTokens: 0, cacheWarm: true, nextPassUsd: 0.0101, withoutEditUsd: 0.0103, deltaUsd: -0.0002 })
    const cost = unappliedWords(['AGENTS.md'], already, false).cost
    expect(cost).toBe('Applying now: −$0.0002 · re-bills nothing more: the next pass already re-bills the session block.')
    expect(nowWords(already, null).detail[0]).toContain('applying this one re-bills nothing more')
    expect(nowWords(already, null).summary).not.toContain('0 tokens')
  })
})

describe('the line after an edit is applied now', () => {
  it('says the next pass writes everything from the session block on again, with the price the panel showed', () => {
    // Not "re-bills the session block": the block is ≈70 tokens, what follows it thousands.
    expect(appliedNowWords('Saved CLAUDE.md and applied it now', price({ rebilledTokens: 3828, nextPassUsd: 0.0152, withoutEditUsd: 0.0019, deltaUsd: 0.0133 }))).toBe(
      'Saved CLAUDE.md and applied it now: the next pass sends it, and writes the session block and everything after it again (+$0.0133 · re-bills 3,828 tokens).',
    )
    expect(appliedNowWords('Applied AGENTS.md, CLAUDE.md now', null, 2)).toBe('Applied AGENTS.md, CLAUDE.md now: the next pass sends them, and writes the session block and everything after it again.')
  })
})
