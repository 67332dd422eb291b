/**
 * The process door's stop-once-full: a caller that keeps only the head of the output (grep) stops the command once
 * that head is full, instead of piping everything else it writes through the app until it ends or times out.
 */
import { describe, expect, it } from 'vitest'
import { tmpdir } from 'node:os'
import { runProcess } from '../../../src-main/node/tools/process'

describe.runIf(process.platform !== 'win32')('runProcess', () => {
  it('stops a command that never ends once its output is full, when asked, and keeps the head', async () => {
    // `yes` writes forever: only the stop (not its 10-minute timeout, not the test's) ends this call.
    const result = await runProcess({
      file: 'yes',
      args: ['match'],
      cwd: tmpdir(),
      env: process.env,
      timeoutMs: 600_000,
      signal: new AbortController().signal,
      maxOutputChars: 10_000,
      stopOnceFull: true,
    })
    expect(result.end).toEqual({ kind: 'signalled', signal: 'SIGTERM' })
    expect(result.output.head.startsWith('match\nmatch\n')).toBe(true)
    expect(result.output.omittedChars).toBeGreaterThan(0)
  })
})
