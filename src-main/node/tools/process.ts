/**
 * The process door: the only way the tools start a process. Every process is started as the leader of a new
 * process group (POSIX `detached`), so that the whole tree it starts can be stopped together:
 *
 * - on timeout or abort: SIGTERM to the group, SIGKILL after KILL_GRACE_MS;
 * - when the command itself exits: SIGKILL to whatever it left running in its group (`server &`), because no
 *   shell may outlive the call;
 * - when this Node process exits: SIGKILL to every group still alive.
 *
 * A process that moves itself to a new session (`setsid`, daemons) leaves the group and is out of reach; the call
 * still ends, with its pipes cut after CLOSE_GRACE_MS. Output (stdout and stderr, interleaved as they arrive) is
 * kept in bounded memory: its beginning and end.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { KILL_GRACE_MS } from '../../engine/tools/limits'
import { HeadTailBuffer, type CappedText } from '../../engine/tools/output'

/** After the command exits and its group is killed, how long to wait for its pipes to close. */
const CLOSE_GRACE_MS = 1_000

export interface ProcessRequest {
  readonly file: string
  readonly args: ReadonlyArray<string>
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  readonly timeoutMs: number
  readonly signal: AbortSignal
  readonly maxOutputChars: number
  /**
   * Stop the process (SIGTERM to its group, as on timeout) once more than `maxOutputChars` have come: for a caller
   * that reads only the head (grep), whose command would otherwise go on producing output nobody keeps — ripgrep
   * matching every line of a 200 MB log pipes all of it through this process. It ends `signalled`.
   */
  readonly stopOnceFull?: boolean
}

export type ProcessEnd =
  | { readonly kind: 'exited'; readonly exitCode: number }
  | { readonly kind: 'signalled'; readonly signal: string }
  | { readonly kind: 'timed_out'; readonly timeoutMs: number }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'spawn_failed'; readonly message: string }

export interface ProcessResult {
  readonly end: ProcessEnd
  readonly output: CappedText
  /** The group leader's pid (for tests that check the group is gone). */
  readonly pid: number | null
}

const WINDOWS = process.platform === 'win32'
const live = new Set<ChildProcess>()
let exitHookInstalled = false

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid
  if (pid === undefined) return
  if (WINDOWS) {
    // Windows has no process groups; taskkill /T walks the tree from the pid.
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined)
    return
  }
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: the group is already gone.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const child of live) killGroup(child, 'SIGKILL')
  })
}

export function runProcess(request: ProcessRequest): Promise<ProcessResult> {
  const output = new HeadTailBuffer(request.maxOutputChars)
  if (request.signal.aborted) return Promise.resolve({ end: { kind: 'aborted' }, output: output.result(), pid: null })
  installExitHook()

  return new Promise<ProcessResult>((resolvePromise) => {
    // Why the group was told to stop. `output_full`: the caller asked for no more once the output is full; the end is
    // then what the signal made of the process, and a timeout coming during the kill grace does not relabel it.
    let stopping: 'timed_out' | 'aborted' | 'output_full' | null = null
    let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null
    let settled = false
    const timers: NodeJS.Timeout[] = []

    const child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      env: request.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: !WINDOWS,
      windowsHide: true,
    })
    live.add(child)

    const finish = (end: ProcessEnd) => {
      if (settled) return
      settled = true
      for (const timer of timers) clearTimeout(timer)
      request.signal.removeEventListener('abort', onAbort)
      live.delete(child)
      resolvePromise({ end, output: output.result(), pid: child.pid ?? null })
    }
    const stop = (why: 'timed_out' | 'aborted' | 'output_full') => {
      if (stopping !== null || exited !== null) return
      stopping = why
      killGroup(child, 'SIGTERM')
      timers.push(setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS))
    }
    const onAbort = () => stop('aborted')

    child.stdout!.setEncoding('utf8')
    child.stderr!.setEncoding('utf8')
    const take = (chunk: string) => {
      output.push(chunk)
      if (request.stopOnceFull === true && output.totalChars > request.maxOutputChars) stop('output_full')
    }
    child.stdout!.on('data', take)
    child.stderr!.on('data', take)

    request.signal.addEventListener('abort', onAbort, { once: true })
    timers.push(setTimeout(() => stop('timed_out'), request.timeoutMs))

    child.once('error', (error) => {
      // Spawning failed (no such program, bad cwd): there is no process to wait for.
      if (child.pid === undefined) finish({ kind: 'spawn_failed', message: error.message })
    })
    child.once('exit', (code, signal) => {
      exited = { code, signal }
      // Background jobs left in the group must not outlive the call.
      killGroup(child, 'SIGKILL')
      timers.push(
        setTimeout(() => {
          child.stdout?.destroy()
          child.stderr?.destroy()
          settle()
        }, CLOSE_GRACE_MS),
      )
    })
    const settle = () => {
      if (stopping === 'timed_out') return finish({ kind: 'timed_out', timeoutMs: request.timeoutMs })
      if (stopping === 'aborted') return finish({ kind: 'aborted' })
      if (exited?.code !== null && exited?.code !== undefined) return finish({ kind: 'exited', exitCode: exited.code })
      return finish({ kind: 'signalled', signal: exited?.signal ?? 'unknown signal' })
    }
    child.once('close', settle)
  })
}
