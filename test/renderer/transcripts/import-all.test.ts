/** Import all counts what it would bring in, and counts apart the files that hold no conversation. */
import { describe, expect, it } from 'vitest'
import type { TranscriptFileView } from '../../../src-preload/contract'
import { importAllCounts } from '../../../src-renderer/features/transcripts/import-all'

const file = (sessionId: string, extra: Partial<TranscriptFileView> = {}): TranscriptFileView => ({
  path: `/cc/${sessionId}.jsonl`,
  sessionId,
  sizeBytes: 10,
  modifiedMs: 0,
  firstAtMs: null,
  lastAtMs: null,
  models: [],
  requests: 1,
  subagentFiles: 0,
  title: null,
  skippedLines: 0,
  unimportable: null,
  imported: null,
  ...extra,
})

describe('importAllCounts', () => {
  it('counts new and changed sessions, and the empty or broken files apart', () => {
    const sessions = [
      file('new'),
      file('changed', { imported: { sessionId: 'ses_1', projectId: 'prj_1', changed: true } }),
      file('done', { imported: { sessionId: 'ses_2', projectId: 'prj_1', changed: false } }),
      file('empty', { unimportable: 'it is empty' }),
      file('broken', { unimportable: 'none of its lines is a transcript record' }),
    ]
    expect(importAllCounts([{ sessions }])).toEqual({ count: 2, unimportable: 2 })
  })
})
