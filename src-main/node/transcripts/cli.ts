/**
 * `npm run import -- <file.jsonl> --summary`: prints a session's totals as JSON without touching the store.
 * `npm run import -- <file.jsonl> --store`: imports the session into Loupe's store (the data folder: LOUPE_HOME,
 * else ~/.loupe), as the app's "Import" does, and prints what it wrote.
 * `npm run import -- --list [--projects-dir <dir>]`: lists the sessions found, newest first.
 *
 * Kept apart from scripts/import.ts so tests can run it in-process with their own output sinks.
 */
import type { PriceFn } from '../../engine/transcripts/totals'
import { summarizeSession } from '../../engine/transcripts/summary'
import { defaultProjectsDir, listSessionFiles } from './locate'
import { describeSession, loadSession } from './load'
import { browserDataDir, databaseFile } from '../data-dir'
import { openStore } from '../store'
import { importTranscript, TranscriptImportError } from './store-import'

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

/** Returns the process exit code: 0 ok, 1 the file could not be read, 2 bad arguments. */
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
  if (flags.has('--list')) {
    const root = projectsDir ?? defaultProjectsDir(io.env)
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
        title: d?.title ?? null,
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
    io.err(`cannot read ${file}: ${loaded.error.kind}: ${loaded.error.message}\n`)
    return 1
  }
  for (const u of loaded.unreadableSubagents) io.err(`warning: subagent file ${u.path} not read (${u.kind})\n`)
  io.out(JSON.stringify(summarizeSession(loaded.session, options.price), null, 2) + '\n')
  return 0
}

async function storeImport(file: string, io: CliIo): Promise<number> {
  const dataDir = browserDataDir((io.env ?? process.env) as NodeJS.ProcessEnv)
  const store = openStore(databaseFile(dataDir))
  try {
    const r = await importTranscript(store, file, { now: Date.now() })
    io.out(
      JSON.stringify(
        { status: r.status, database: databaseFile(dataDir), session_id: r.sessionId, project_id: r.projectId, title: r.title, passes: r.passes, entries: r.entries, checkpoints: r.checkpoints, children: r.children.map((c) => ({ session_id: c.sessionId, kind: c.kind, id: c.transcriptId, passes: c.passes })), skipped_lines: r.summary.skipped_lines },
        null,
        2,
      ) + '\n',
    )
    return 0
  } catch (err) {
    if (!(err instanceof TranscriptImportError)) throw err
    io.err(`cannot import ${file}: ${err.kind}: ${err.message}\n`)
    return 1
  } finally {
    store.close()
  }
}
