/**
 * bash: runs the command through the process door with the root as working directory. Stdin is closed; the
 * environment is the app's minus the API credentials, with pagers and prompts turned off so nothing waits for a
 * terminal that is not there.
 */
import { existsSync } from 'node:fs'
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import { BASH_DEFAULT_TIMEOUT_MS, TOOL_OUTPUT_MAX_CHARS } from '../../engine/tools/limits'
import { renderCommandResult } from '../../engine/tools/render'
import { assertNever } from '../../engine/tools/types'
import type { BashInput } from '../../engine/tools/schemas'
import { runProcess } from './process'

/** Variables never passed to commands: a command has no business with the app's model credentials. */
const WITHHELD = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN']

export function commandEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', TERM: 'dumb' }
  for (const name of WITHHELD) delete env[name]
  return env
}

export interface Shell {
  readonly file: string
  argsFor(command: string): ReadonlyArray<string>
}

export function defaultShell(): Shell {
  if (process.platform === 'win32') {
    return { file: process.env.ComSpec ?? 'cmd.exe', argsFor: (command) => ['/d', '/s', '/c', command] }
  }
  const file = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh'
  return { file, argsFor: (command) => ['-c', command] }
}

export interface BashDeps {
  readonly rootReal: string
  readonly env: NodeJS.ProcessEnv
  readonly shell: Shell
  readonly signal: AbortSignal
}

export async function bashTool(input: BashInput, deps: BashDeps): Promise<ToolOutcome> {
  const timeoutMs = input.timeout_ms ?? BASH_DEFAULT_TIMEOUT_MS
  const result = await runProcess({
    file: deps.shell.file,
    args: deps.shell.argsFor(input.command),
    cwd: deps.rootReal,
    env: deps.env,
    timeoutMs,
    signal: deps.signal,
    maxOutputChars: TOOL_OUTPUT_MAX_CHARS,
  })
  const end = result.end
  switch (end.kind) {
    case 'spawn_failed':
      return errorOutcome('io', `The shell could not be started: ${end.message}`)
    case 'exited':
      return end.exitCode === 0
        ? okOutcome(renderCommandResult(result.output, end))
        : errorOutcome('exit_status', renderCommandResult(result.output, end))
    case 'signalled':
      return errorOutcome('exit_status', renderCommandResult(result.output, end))
    case 'timed_out':
      return errorOutcome('timeout', renderCommandResult(result.output, end))
    case 'aborted':
      return errorOutcome('aborted', renderCommandResult(result.output, end))
    default:
      return assertNever(end)
  }
}
