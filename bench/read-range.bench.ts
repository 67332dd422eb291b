/**
 * read_file paging far into a file too large to read whole (docs/tools.md, decision 0038): a page of 2,000 lines
 * 90% of the way into a 1 GiB log, read as read_file reads it (node/fs/line-range.ts, the same limits), once an
 * earlier read of the same file has passed that far and left its line marks. The baseline, in the same run, is the
 * same page read with no marks: from the start of the file, as every read did before. Median of RUNS after one
 * warm-up; the file is in the page cache for both, so the figures are the reader's, not the disk's.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { READ_DEFAULT_LINE_LIMIT, READ_RANGE_COUNT_MAX_BYTES, TOOL_OUTPUT_MAX_CHARS } from '../src-main/engine/tools/limits'
import { LineMarks, readLineRange, type LineRangeRequest } from '../src-main/node/fs/line-range'
import { medianMs, round, timeMs, type Bench } from './bench'

const RUNS = 5
const FILE_BYTES = 1024 * 1024 * 1024
/** Bytes written at a time while the file is made. */
const WRITE_BYTES = 16 * 1024 * 1024

/** A log of FILE_BYTES with numbered lines of varied length; returns its line count. */
function writeLog(path: string): number {
  const fd = openSync(path, 'w')
  let lines = 0
  try {
    for (let written = 0; written < FILE_BYTES; ) {
      const batch: string[] = []
      let bytes = 0
      while (bytes < WRITE_BYTES && written + bytes < FILE_BYTES) {
        lines++
        const line = `2026-12-01T11:00:00Z INFO request ${lines} handled path=/api/items/${lines % 977} ${'x'.repeat(lines % 53)}\n`
        batch.push(line)
        bytes += line.length
      }
      writeSync(fd, batch.join(''))
      written += bytes
    }
  } finally {
    closeSync(fd)
  }
  return lines
}

const readRangeBench: Bench = {
  figures: ['tools.read_range_far_1gib_ms'],
  async run() {
    const root = mkdtempSync(join(tmpdir(), 'loupe-bench-read-'))
    try {
      const path = join(root, 'app.log')
      const total = writeLog(path)
      const handle = await open(path, 'r')
      try {
        const { size } = await handle.stat()
        const startLine = Math.floor(total * 0.9)
        const page = (marks?: LineMarks) => {
          const request: LineRangeRequest = { startLine, maxLines: READ_DEFAULT_LINE_LIMIT, maxChars: TOOL_OUTPUT_MAX_CHARS, countMaxBytes: READ_RANGE_COUNT_MAX_BYTES, ...(marks ? { marks } : {}) }
          return readLineRange(handle, size, request)
        }
        const marks = new LineMarks()
        const first = await timeMs(() => page(marks))
        const value = await medianMs(() => page(marks), RUNS)
        const base = await medianMs(() => page(), RUNS)
        const read = await page(marks)
        return [
          {
            name: 'tools.read_range_far_1gib_ms',
            value: round(value, 1),
            unit: 'ms',
            baseline: round(base, 1),
            ratio: round(value / base, 4),
            note:
              `${READ_DEFAULT_LINE_LIMIT} lines from line ${startLine} of ${total} (90% in) of a 1 GiB log, after a first read that far (${round(first, 0)} ms) left ${marks.size} line marks; ` +
              `read ${read.readBytes} bytes of the file for it; baseline: the same page read from the start of the file`,
          },
        ]
      } finally {
        await handle.close()
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  },
}

export default readRangeBench
