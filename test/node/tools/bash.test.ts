import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeFixture, Session, type Fixture } from './fixture'

const posix = process.platform !== 'win32'

/** A zombie has exited; it only waits for a parent to collect its status. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

/** Polls for a condition the system reaches asynchronously (signal delivery); fails after `limitMs`. */
async function eventually(condition: () => boolean, limitMs = 10_000): Promise<boolean> {
  const until = Date.now() + limitMs
  while (Date.now() < until) {
    if (condition()) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return condition()
}

let fx: Fixture
let session: Session
beforeEach(() => {
  fx = makeFixture({ 'hello.txt': 'hi\n' })
  session = new Session(fx, { env: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-secret', LOUPE_TEST_VAR: 'visible' } })
})
afterEach(async () => {
  await session.executor.dispose()
  fx.cleanup()
})

describe.runIf(posix)('bash', () => {
  it('runs in the project root and returns output with the exit code', async () => {
    expect(await session.call('bash', { command: 'pwd; cat hello.txt' })).toEqual({
      kind: 'ok',
      content: `${fx.root}\nhi\n[exit code 0]`,
      effects: [],
    })
    expect(await session.call('bash', { command: 'echo oops >&2; exit 3' })).toMatchObject({ kind: 'error', code: 'exit_status', content: 'oops\n[exit code 3]' })
  })

  it('withholds the API credentials, keeps the rest of the environment, and closes stdin', async () => {
    const outcome = await session.call('bash', { command: 'echo "key=${ANTHROPIC_API_KEY:-none} var=$LOUPE_TEST_VAR"; cat; echo after-cat' })
    expect(outcome.content).toBe('key=none var=visible\nafter-cat\n[exit code 0]')
  })

  it('caps huge output, keeping both ends, with a note on how to see the rest', async () => {
    const outcome = await session.call('bash', { command: 'echo FIRST; seq 1 200000; echo LAST' })
    expect(outcome.kind).toBe('ok')
    expect(outcome.content.length).toBeLessThan(31_000)
    expect(outcome.content.startsWith('FIRST\n')).toBe(true)
    expect(outcome.content).toContain('LAST\n[exit code 0]')
    expect(outcome.content).toMatch(/characters omitted here; the end follows\. To see everything, run the command again with its output redirected/)
  })

  it('kills the whole process group on timeout, a child ignoring SIGTERM included', async () => {
    const outcome = await session.call('bash', {
      command: "(trap '' TERM; exec sleep 60) & echo $! > bg.pid; echo started; wait",
      timeout_ms: 2_000,
    })
    expect(outcome).toMatchObject({ kind: 'error', code: 'timeout' })
    expect(outcome.content).toContain('started\n[timed out after 2000 ms')
    const pid = Number(fx.read('bg.pid'))
    expect(pid).toBeGreaterThan(0)
    expect(await eventually(() => !isAlive(pid))).toBe(true)
  })

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    const outcome = await session.call('bash', { command: "trap '' TERM; echo $$ > shell.pid; sleep 60", timeout_ms: 1_000 })
    expect(outcome).toMatchObject({ kind: 'error', code: 'timeout' })
    expect(await eventually(() => !isAlive(Number(fx.read('shell.pid'))))).toBe(true)
  })

  it('stops a command mid-way when the call is aborted, process group included', async () => {
    const controller = new AbortController()
    const pending = session.call('bash', { command: 'sleep 60 & echo $! > bg.pid; wait' }, controller.signal)
    expect(await eventually(() => existsSync(join(fx.root, 'bg.pid')) && fx.read('bg.pid').trim() !== '')).toBe(true)
    const pid = Number(fx.read('bg.pid'))
    controller.abort()
    const outcome = await pending
    expect(outcome).toMatchObject({ kind: 'error', code: 'aborted' })
    expect(outcome.content).toContain('interrupted by the user')
    expect(await eventually(() => !isAlive(pid))).toBe(true)
  })

  it('leaves no background job running after the command returns', async () => {
    const outcome = await session.call('bash', { command: 'sleep 60 > /dev/null 2>&1 & echo $!' })
    expect(outcome.kind).toBe('ok')
    const pid = Number(outcome.content.split('\n')[0])
    expect(await eventually(() => !isAlive(pid))).toBe(true)
  })

  it('does not start anything once the turn is already interrupted', async () => {
    const controller = new AbortController()
    controller.abort()
    const outcome = await session.call('bash', { command: 'touch ran.txt' }, controller.signal)
    expect(outcome).toMatchObject({ kind: 'error', code: 'aborted' })
    expect(existsSync(join(fx.root, 'ran.txt'))).toBe(false)
  })

  it('stops running commands when the executor is disposed', async () => {
    const pending = session.call('bash', { command: 'echo $$ > shell.pid; sleep 60' })
    expect(await eventually(() => existsSync(join(fx.root, 'shell.pid')) && fx.read('shell.pid').trim() !== '')).toBe(true)
    await session.executor.dispose()
    expect(await pending).toMatchObject({ kind: 'error', code: 'aborted' })
    expect(await eventually(() => !isAlive(Number(fx.read('shell.pid'))))).toBe(true)
  })
})
