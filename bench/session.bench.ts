/**
 * Long sessions (docs/agent-loop.md "The store"): a session of LONG_TURNS turns (five entries each, compacted every
 * TURNS_PER_COMPACTION turns, as a real one that went on for days is), then more turns sent to it.
 *
 * - `session.entries_read_ms`: reading the session's entries as the loop and `session.get` do
 *   (`StoreSessionLog.entries`, which keeps what it read and reads only the rows after it), after one entry more
 *   was appended. Baseline, in the same run: reading and parsing every row, as each read did before.
 * - `loop.long_session_overhead_p50_ms`: the loop's own time per pass (everything but the model) in that session.
 *   Baseline, in the same run and interleaved turn by turn: the same in a new session of the same project setup.
 */
import { join } from 'node:path'
import { StoreSessionLog } from '../src-main/node/session/store-log'
import { openStore } from '../src-main/node/store'
import { percentile, round, type Bench } from './bench'
import { appendLongConversation } from './support/long-session'
import { passOverheads, startDriver } from './support/session-driver'

const LONG_TURNS = 5_000
const TURNS_PER_COMPACTION = 500
const RESULT_LINES = 10
const READ_ROUNDS = 15
const TURNS = 20

const median = (samples: number[]) => percentile(samples, 50)

const bench: Bench = {
  figures: ['session.entries_read_ms', 'loop.long_session_overhead_p50_ms'],
  async run() {
    const long = await startDriver({ files: 10, bytesPerFile: 2000 })
    const short = await startDriver({ files: 10, bytesPerFile: 2000 })
    // A second connection to the long driver's store file: the conversation is written behind the app, as an import
    // writes it, and the app's next read sees it.
    const store = openStore(join(long.dataDir, 'loupe.db'))
    try {
      appendLongConversation(store, long.sessionId, LONG_TURNS, { turnsPerCompaction: TURNS_PER_COMPACTION, resultLines: RESULT_LINES, at: Date.now() })
      const entryCount = store.entries.count(long.sessionId)

      const log = new StoreSessionLog(store, long.sessionId, { now: () => Date.now() })
      log.entries()
      const ours: number[] = []
      const baseline: number[] = []
      for (let i = 0; i < READ_ROUNDS; i++) {
        log.append([{ kind: 'notice', source: 'extension', level: 'info', text: `round ${i}` }])
        let t = performance.now()
        if (log.entries().length === 0) throw new Error('nothing read')
        ours.push(performance.now() - t)
        t = performance.now()
        if (store.entries.list(long.sessionId).length === 0) throw new Error('nothing read')
        baseline.push(performance.now() - t)
      }

      const starts = { long: [] as number[], short: [] as number[] }
      for (let i = 0; i < TURNS; i++) {
        for (const [name, driver] of [['long', long], ['short', short]] as const) {
          starts[name].push(performance.now())
          const reason = await driver.turn(`read file${i % 10}.txt`)
          if (reason !== 'end_turn') throw new Error(`turn ended: ${reason}`)
        }
      }
      const longOverhead = median(passOverheads(long, starts.long))
      const shortOverhead = median(passOverheads(short, starts.short))
      return [
        {
          name: 'session.entries_read_ms',
          value: round(median(ours), 3),
          unit: 'ms',
          baseline: round(median(baseline), 1),
          ratio: round(median(ours) / median(baseline), 4),
          note: `median of ${READ_ROUNDS}: a ${entryCount}-entry session (${LONG_TURNS} turns, a compaction every ${TURNS_PER_COMPACTION}) read after one entry more; baseline: every row read and parsed`,
        },
        {
          name: 'loop.long_session_overhead_p50_ms',
          value: round(longOverhead, 2),
          unit: 'ms',
          baseline: round(shortOverhead, 2),
          ratio: round(longOverhead / shortOverhead, 2),
          note: `median per pass over ${TURNS} turns in the ${entryCount}-entry session; baseline: a new session, turns interleaved`,
        },
      ]
    } finally {
      store.close()
      await long.close()
      await short.close()
    }
  },
}

export default bench
