/**
 * `npm run import -- <file.jsonl> --summary`: prints a session's totals as JSON without touching the store.
 * `npm run import -- <file.jsonl> --store`: imports the session into Loupe's store (the data folder: LOUPE_HOME,
 * else ~/.loupe), as the app's "Import" does, and prints what it wrote.
 * `npm run import -- --list [--projects-dir <dir>]`: lists the sessions found, newest first.
 *
 * Kept apart from scripts/import.ts so tests can run it in-process with their own output sinks.
 */
import { stat } from 'node:fs/promises'
import type { PriceFn } from '../../engine/transcripts/totals'
import { summarizeSession } from '../../engine/transcripts/summary'
import { defaultProjectsDir, listSessionFiles } from './locate'
import { describeSession, loadSession, noConversationMessage } from './load'
import { browserDataDir, databaseFile } from '../data-dir'
import { openStore, type Store } from '../store'
import { ioCause } from '../fs/io-cause'
import { describeReadError } from '../fs/regular-file'
import { importTranscript, TranscriptImportError } from './store-import'
import { cleanName } from '../../../src-preload/names'

export interface CliIo {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  readonly env?: Readonly<Record<string, string | undefined>>
}

export interface CliOptions {
  /** Prices for `cost_usd`; without one the summary carries tokens only. */
  readonly price?: PriceFn
}

const USAGE = `usage:
  npm run import -- <session.jsonl> --summary [--no-subagents]
  npm run import -- <session.jsonl> --store
  npm run import -- --list [--projects-dir <dir>]

--summary prints the session's totals as JSON (requests, token figures, compactions, skipped lines); nothing is
written anywhere. Subagent files next to the session are read unless --no-subagents is given.
--store imports the session (with its subagents) into Loupe's store, where the app shows it.`

/**
 * Returns the process exit code: 0 ok, 1 the file could not be read or imported (or the store opened), 2 bad
 * arguments. Every failure the user can fix is one line on `err` naming the file; nothing is written for it.
 */
export async function runImportCli(argv: ReadonlyArray<string>, io: CliIo, options: CliOptions = {}): Promise<number> {
  const flags = new Set(argv.filter((a) => a.startsWith('--')))
  const projectsDirAt = argv.indexOf('--projects-dir')
  const projectsDir = projectsDirAt >= 0 ? argv[projectsDirAt + 1] : undefined
  const positional = argv.filter((a, i) => !a.startsWith('--') && !(projectsDirAt >= 0 && i === projectsDirAt + 1))
  const known = new Set(['--summary', '--store', '--no-subagents', '--list', '--projects-dir', '--help'])
  const unknown = [...flags].filter((f) => !known.has(f))
  if (flags.has('--help')) {
    io.out(USAGE + '\n')
    return 0
  }
  if (unknown.length > 0) {
    io.err(`unknown option ${unknown.join(', ')}\n${USAGE}\n`)
    return 2
  }
  // A --projects-dir whose folder was left off would list the default folder instead, as if it had been asked for.
  if (projectsDirAt >= 0 && (projectsDir === undefined || projectsDir.startsWith('--'))) {
    io.err(`--projects-dir takes a folder\n${USAGE}\n`)
    return 2
  }
  if (flags.has('--list') && (positional.length > 0 || flags.has('--summary') || flags.has('--store'))) {
    io.err(`--list takes no session file and no --summary or --store\n${USAGE}\n`)
    return 2
  }
  if (!flags.has('--list') && projectsDirAt >= 0) {
    io.err(`--projects-dir goes with --list\n${USAGE}\n`)
    return 2
  }
  if (flags.has('--list')) {
    const root = projectsDir ?? defaultProjectsDir(io.env)
    // An empty listing would say "no sessions" of a folder given by mistake (not there, or a file). A default folder
    // that is missing only means Claude Code has not run here, and lists nothing, as the app's panel does.
    if (projectsDir !== undefined) {
      const info = await stat(projectsDir).catch((err: unknown) => err as NodeJS.ErrnoException)
      if (info instanceof Error) {
        io.err(`import: ${info.code === 'ENOENT' || info.code === 'ENOTDIR' ? `no folder at ${projectsDir}` : describeReadError(projectsDir, info)}\n`)
        return 1
      }
      if (!info.isDirectory()) {
        io.err(`import: ${projectsDir} is not a folder\n`)
        return 1
      }
    }
    const listing = await listSessionFiles(root)
    const rows = []
    for (const info of listing.sessions) {
      const d = await describeSession(info)
      rows.push({
        project: info.project,
        session_id: info.sessionId,
        path: info.path,
        size_bytes: info.sizeBytes,
        modified: new Date(info.modifiedMs).toISOString(),
        first_at: d?.firstAtMs == null ? null : new Date(d.firstAtMs).toISOString(),
        last_at: d?.lastAtMs == null ? null : new Date(d.lastAtMs).toISOString(),
        models: d?.models ?? [],
        requests: d?.requests ?? null,
        subagent_files: info.subagentPaths.length,
        title: cleanName(d?.title ?? '') || null,
      })
    }
    io.out(JSON.stringify({ projects_dir: root, sessions: rows, skipped_entries: listing.skippedEntries }, null, 2) + '\n')
    return 0
  }
  const file = positional[0]
  if (file !== undefined && positional.length === 1 && flags.has('--store') && !flags.has('--summary')) return storeImport(file, io)
  if (file === undefined || positional.length > 1 || !flags.has('--summary')) {
    io.err((flags.has('--summary') || file === undefined ? '' : 'give --summary (totals as JSON) or --store (import into the store)\n') + USAGE + '\n')
    return 2
  }
  const loaded = await loadSession(file, { subagents: !flags.has('--no-subagents') })
  if (!loaded.ok) {
    io.err(`import: ${loaded.error.message}\n`)
    return 1
  }
  // The same rule as --store: a file with no conversation in it has no totals to give, only the reasons it has none.
  const stats = loaded.session.file
  const none = noConversationMessage(file, { lineCount: stats.lineCount, skippedLines: stats.skippedTotal, requests: stats.requests.length, skipped: stats.skipped })
  if (none !== null) {
    io.err(`import: ${none}\n`)
    return 1
  }
  for (const u of loaded.unreadableSubagents) io.err(`warning: subagent file ${u.path} not read (${u.kind})\n`)
  io.out(JSON.stringify(summarizeSession(loaded.session, options.price), null, 2) + '\n')
  return 0
}

async function storeImport(file: string, io: CliIo): Promise<number> {
  const dataDir = browserDataDir((io.env ?? process.env) as NodeJS.ProcessEnv)
  let store: Store
  try {
    store = openStore(databaseFile(dataDir))
  } catch (err) {
    // The store's own words name loupe.db and what to do (node/store/database.ts).
    io.err(`import: ${err instanceof Error ? err.message : String(err)}\n`)
    return 1
  }
  try {
    const r = await importTranscript(store, file, { now: Date.now() })
    for (const u of r.unreadableSubagents) io.err(`warning: subagent file ${u.path} not read (${u.kind})\n`)
    io.out(
      JSON.stringify(
        { status: r.status, database: databaseFile(dataDir), session_id: r.sessionId, project_id: r.projectId, title: r.title, passes: r.passes, entries: r.entries, checkpoints: r.checkpoints, children: r.children.map((c) => ({ session_id: c.sessionId, kind: c.kind, id: c.transcriptId, passes: c.passes })), skipped_lines: r.summary.skipped_lines },
        null,
        2,
      ) + '\n',
    )
    return 0
  } catch (err) {
    // The import writes in one transaction, so a failure leaves the store as it was. A store that cannot be written
    // (disk full, read-only, held by another writer too long) is the user's to fix; any other error is a fault here.
    if (err instanceof TranscriptImportError) io.err(`import: ${err.message}\n`)
    else if (isStoreFailure(err)) io.err(`import: cannot import ${file} into ${databaseFile(dataDir)}: ${ioCause(err)}\n`)
    else throw err
    return 1
  } finally {
    store.close()
  }
}

/** SQLite's refusals (SQLITE_FULL, SQLITE_READONLY, SQLITE_BUSY …) and the file system's (ENOSPC, EACCES …). */
function isStoreFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('SQLITE_') || /^E[A-Z]+$/.test(code))
}
