/**
 * The tool executor: runs an allowed tool call against the project on disk. Every file access goes through the
 * project door (project-fs.ts), every process through the process door (process.ts), every file write through
 * writeFileAtomic. See docs/tools.md.
 */
import { errorOutcome, okOutcome, type ToolCallRequest, type ToolExecutionContext, type ToolExecutor, type ToolOutcome } from '../../engine/tools/executor'
import { renderTodos } from '../../engine/tools/render'
import type { ParsedToolCall } from '../../engine/tools/schemas'
import { getToolSpec, TOOL_SPECS } from '../../engine/tools/specs'
import { assertNever } from '../../engine/tools/types'
import { bashTool, commandEnvironment, defaultShell, type Shell } from './bash'
import { editFileTool, fileChangeRefusal, previewFileChange, writeFileTool, type FileChangeCall } from './change-file'
import type { ToolDeps } from './deps'
import { GitignoreRules } from './gitignore'
import { globTool } from './glob'
import { grepTool } from './grep'
import { findRipgrep } from './grep-rg'
import { listDirTool } from './list-dir'
import { createProjectFs } from './project-fs'
import { readFileTool } from './read-file'
import { rememberTool } from './remember'
import { skillTool } from './skill'
import type { ChangePreview } from '../../engine/tools/preview'
import { watch, type FSWatcher } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { ioCause } from '../fs/io-cause'

export interface ToolExecutorOptions {
  /** The project root. Every tool is confined to its real path. */
  readonly root: string
  /** The app's own folder; user memory is `<loupeHome>/memory.md`. */
  readonly loupeHome: string
  /** 'auto' (default): ripgrep from PATH when installed; 'off': always the built-in searcher; or rg's path. */
  readonly ripgrep?: 'auto' | 'off' | (string & {})
  /** Environment commands start from (default: this process's), before credentials are withheld. */
  readonly env?: NodeJS.ProcessEnv
  /** The shell bash runs in (default: /bin/bash, else /bin/sh; cmd.exe on Windows). */
  readonly shell?: Shell
  /** Loupe's data folder: no file tool writes into it, even when the project holds it (ProjectFsOptions.noWrite). */
  readonly dataDir?: string
}

export interface NodeToolExecutor extends ToolExecutor {
  /** Stops every call still running (their process groups included) and waits for them to settle. */
  dispose(): Promise<void>
}

export function createToolExecutor(options: ToolExecutorOptions): NodeToolExecutor {
  const fs = createProjectFs(options.root, options.dataDir ? { noWrite: [options.dataDir] } : {})
  const env = commandEnvironment(options.env ?? process.env)
  const shell = options.shell ?? defaultShell()
  const lifetime = new AbortController()
  const running = new Set<Promise<ToolOutcome>>()
  let gitignore: Promise<GitignoreRules> | null = null
  let ripgrep: Promise<string | null> | null = null

  const rules = () => (gitignore ??= fs.root().then((root) => new GitignoreRules(root)))
  const findRg = (): Promise<string | null> => {
    const choice = options.ripgrep ?? 'auto'
    if (choice === 'off') return Promise.resolve(null)
    if (choice !== 'auto') return Promise.resolve(choice)
    return (ripgrep ??= findRipgrep(env))
  }

  async function run(call: ParsedToolCall, deps: ToolDeps): Promise<ToolOutcome> {
    switch (call.name) {
      case 'read_file':
        return readFileTool(call.input, deps)
      case 'list_dir':
        return listDirTool(call.input, deps)
      case 'glob':
        return globTool(call.input, deps)
      case 'grep':
        return grepTool(call.input, deps, { ripgrep: findRg, env })
      case 'edit_file':
        return editFileTool(call.input, deps)
      case 'write_file':
        return writeFileTool(call.input, deps)
      case 'bash':
        return bashTool(call.input, { rootReal: await fs.root(), env, shell, signal: deps.signal })
      case 'remember':
        return rememberTool(call.input, deps, options.loupeHome)
      case 'todo_write':
        return okOutcome(renderTodos(call.input.todos), [{ type: 'todos_updated', todos: call.input.todos }])
      case 'skill':
        return skillTool(call.input, deps)
      case 'compact':
        return errorOutcome('not_executable', 'compact is carried out by the compaction layer, not by the tool executor.')
      default:
        return assertNever(call)
    }
  }

  async function execute(call: ToolCallRequest, ctx: ToolExecutionContext): Promise<ToolOutcome> {
    const spec = getToolSpec(call.name)
    if (spec === undefined) {
      return errorOutcome('unknown_tool', `There is no tool named "${call.name}". Available tools: ${TOOL_SPECS.map((s) => s.name).join(', ')}.`)
    }
    const parsed = spec.parse(call.input)
    if (!parsed.ok) return errorOutcome('invalid_input', `Invalid input for ${spec.name}:\n${parsed.error}`)
    const signal = AbortSignal.any([ctx.signal, lifetime.signal])
    if (signal.aborted) return errorOutcome('aborted', `${spec.name} was not run: the turn was interrupted.`)
    const deps: ToolDeps = { fs, gitignore: rules, state: ctx.sessionState, signal }
    try {
      return await run({ name: spec.name, input: parsed.value } as ParsedToolCall, deps)
    } catch (error) {
      return errorOutcome('io', `${spec.name} failed: ${ioCause(error)}`)
    }
  }

  /**
   * A check made before an edit_file or write_file call is asked about (`check`: its preview, or its refusal), by the
   * call's own checks and writing nothing; null for another call, input the call would reject, or a check that
   * fails: the call itself then meets the same failure when it runs, and says it.
   */
  async function beforeAsking<T>(call: ToolCallRequest, ctx: ToolExecutionContext, check: (change: FileChangeCall, deps: ToolDeps) => Promise<T | null>): Promise<T | null> {
    if (call.name !== 'edit_file' && call.name !== 'write_file') return null
    const parsed = getToolSpec(call.name)!.parse(call.input)
    if (!parsed.ok) return null
    const signal = AbortSignal.any([ctx.signal, lifetime.signal])
    try {
      return await check({ name: call.name, input: parsed.value } as FileChangeCall, { fs, gitignore: rules, state: ctx.sessionState, signal })
    } catch {
      return null
    }
  }
  const preview = (call: ToolCallRequest, ctx: ToolExecutionContext): Promise<ChangePreview | null> => beforeAsking(call, ctx, previewFileChange)
  const refusal = (call: ToolCallRequest, ctx: ToolExecutionContext): Promise<ToolOutcome | null> => beforeAsking(call, ctx, fileChangeRefusal)

  /**
   * Watches the folder of the file a preview shows, for that name: an editor that saves by writing a new file and
   * renaming it over the old one replaces the file a watch on the file itself would follow. A folder that does not
   * exist yet (a file to be created under new folders) or cannot be watched: the preview is made once.
   */
  function watchPreview(shown: ChangePreview, changed: () => void): () => void {
    let watcher: FSWatcher | null = null
    let stopped = false
    void fs.root().then(
      (root) => {
        if (stopped) return
        const file = join(root, shown.path)
        const name = basename(file)
        try {
          watcher = watch(dirname(file), { persistent: false }, (_event, filename) => {
            if (filename === null || filename.toString() === name) changed()
          })
          watcher.on('error', () => watcher?.close())
          // A change made between the preview and this watch is not heard: look once now (an unchanged preview is
          // not asked again).
          changed()
        } catch {
          watcher = null
        }
      },
      () => undefined,
    )
    return () => {
      stopped = true
      watcher?.close()
    }
  }

  return {
    preview,
    refusal,
    watchPreview,
    execute(call, ctx) {
      const pending = execute(call, ctx)
      running.add(pending)
      void pending.finally(() => running.delete(pending))
      return pending
    },
    async dispose() {
      lifetime.abort()
      await Promise.all([...running])
    },
  }
}

export type { Shell } from './bash'
