/**
 * The main process's snapshot of the compaction in flight (what `compaction.list` gives a window opened in its
 * middle): the summary's pieces in order, gaps counted, a retry's new stream starting again, bounded, and gone when
 * the compaction ends.
 */
import { expect, it } from 'vitest'
import { LIVE_SUMMARY_MAX_CHARS } from '../../../src-preload/contract'
import { nextLiveCompaction, type LiveCompactionSnapshot } from '../../../src-main/node/session/live-compaction'

const streaming = (stream: number, textOffset: number, text: string) =>
  ({ type: 'progressed', compactionId: 'cmp_1', progress: { stage: 'summary_streaming', form: 'cut', stream, outputChars: textOffset + text.length, outputTokens: Math.ceil((textOffset + text.length) / 4), text, textOffset, thinkingChars: 0 } }) as const

it('follows one compaction from its start to its end', () => {
  let live: LiveCompactionSnapshot | null = nextLiveCompaction(null, { type: 'started', compactionId: 'cmp_1', trigger: 'manual', focus: 'the parser', dryRun: false }, 1000)
  expect(live).toMatchObject({ compactionId: 'cmp_1', startedAt: 1000, stage: 'started', text: '' })
  live = nextLiveCompaction(live, { type: 'progressed', compactionId: 'cmp_1', progress: { stage: 'trimmed', trimmed: 3, savedTokens: 1200, enough: false } }, 1001)
  expect(live).toMatchObject({ stage: 'trimmed', trimmed: 3, savedTokens: 1200 })
  live = nextLiveCompaction(live, streaming(1, 0, 'Hello '), 1002)
  live = nextLiveCompaction(live, streaming(1, 6, 'world'), 1003)
  live = nextLiveCompaction(live, streaming(1, 6, 'world'), 1004)
  expect(live).toMatchObject({ stage: 'summary_streaming', stream: 1, text: 'Hello world', textEnd: 11, textHidden: 0, outputChars: 11 })
  // Another compaction's events change nothing; a burst sent as its tail leaves a counted gap.
  expect(nextLiveCompaction(live, { ...streaming(1, 11, '!'), compactionId: 'cmp_other' }, 1005)).toBe(live)
  live = nextLiveCompaction(live, streaming(1, 20, 'tail'), 1006)
  expect(live).toMatchObject({ text: 'Hello worldtail', textHidden: 9, textEnd: 24 })
  // A second summary request counts its thinking and its text from nothing.
  live = nextLiveCompaction(live, { type: 'progressed', compactionId: 'cmp_1', progress: { ...streaming(1, 24, '').progress, thinkingChars: 120 } }, 1006)
  expect(live).toMatchObject({ thinkingChars: 120, outputChars: 24 })
  live = nextLiveCompaction(live, { type: 'progressed', compactionId: 'cmp_1', progress: { stage: 'summary_started', form: 'standalone' } }, 1006)
  expect(live).toMatchObject({ stage: 'summary_started', thinkingChars: 0, outputChars: 0, outputTokens: 0 })
  // A retry starts a new stream.
  live = nextLiveCompaction(live, streaming(2, 0, 'Again.'), 1007)
  expect(live).toMatchObject({ stream: 2, text: 'Again.', textHidden: 0, textEnd: 6 })
  expect(nextLiveCompaction(live, { type: 'failed', compactionId: 'cmp_1', reason: 'cancelled', message: 'cancelled' }, 1008)).toBeNull()
})

it('keeps only the newest part of a long summary', () => {
  let live: LiveCompactionSnapshot | null = nextLiveCompaction(null, { type: 'started', compactionId: 'cmp_1', trigger: 'auto', focus: null, dryRun: false }, 0)
  const piece = 'abcdefghij'.repeat(200)
  for (let i = 0; i < 10; i++) live = nextLiveCompaction(live, streaming(1, i * piece.length, piece), i)
  expect(live!.text).toHaveLength(LIVE_SUMMARY_MAX_CHARS)
  expect(live!.textHidden).toBe(10 * piece.length - LIVE_SUMMARY_MAX_CHARS)
  expect(live!.textEnd).toBe(10 * piece.length)
})
