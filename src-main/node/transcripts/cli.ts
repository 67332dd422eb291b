/**
 * `npm run import -- <file.jsonl> --summary`: prints a session's totals as JSON without touching the store.
 * `npm run import -- --list [--projects-dir <dir>]`: lists the sessions found, newest first.
 *
 * Kept apart from scripts/import.ts so tests can run it in-process with their own output sinks.
 */
import type { PriceFn } from '../../engine/transcripts/totals'
import { summarizeSession } from '../../engine/transcripts/summary'
import { defaultProjectsDir, listSessionFiles } from './locate'
import { describeSession, loadSession } from './load'

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
  npm run import -- --list [--projects-dir <dir>]

--summary prints the session's totals as JSON (requests, token figures, compactions, skipped lines); nothing is
written anywhere. Subagent files next to the session are read unless --no-subagents is given.`

/** Returns the process exit code: 0 ok, 1 the file could not be read, 2 bad arguments. */
export async function runImportCli(argv: ReadonlyArray<string>, io: CliIo, options: CliOptions = {}): Promise<number> {
  const flags = new Set(argv.filter((a) => a.startsWith('--')))
  const projectsDirAt = argv.indexOf('--projects-dir')
  const projectsDir = projectsDirAt >= 0 ? argv[projectsDirAt + 1] : undefined
  const positional = argv.filter((a, i) => !a.startsWith('--') && !(projectsDirAt >= 0 && i === projectsDirAt + 1))
  const known = new Set(['--summary', '--no-subagents', '--list', '--projects-dir', '--help'])
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
  if (file === undefined || positional.length > 1 || !flags.has('--summary')) {
    io.err(
      (flags.has('--summary') || file === undefined ? '' : 'importing into the store is not available yet; use --summary\n') +
        USAGE +
        '\n',
    )
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
