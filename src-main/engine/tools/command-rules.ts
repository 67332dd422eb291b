/**
 * Bash command patterns and the built-in deny list.
 *
 * A pattern is a word prefix: `npm test` covers `npm test` and `npm test -- --watch`, not `npm testing`. A trailing
 * `*` or `:*` (`npm test:*`, the spelling other agents use) means the same thing. A command is covered only when
 * every simple command in it is covered and nothing in it is hidden or writes files by redirection.
 */
import { parseCommand, programOf, type CommandSegment, type ParsedCommand } from './shell-words'

export function patternWords(pattern: string): ReadonlyArray<string> {
  const trimmed = pattern.trim().replace(/:\*$/, '').replace(/\s+\*$/, '')
  const first = parseCommand(trimmed).segments[0]
  return first?.words ?? []
}

function startsWithWords(words: ReadonlyArray<string>, prefix: ReadonlyArray<string>): boolean {
  return prefix.length > 0 && prefix.length <= words.length && prefix.every((w, i) => words[i] === w)
}

/** Output redirected here writes nothing. */
const HARMLESS_REDIRECTS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr'])

/** Why a command cannot be approved by a rule whatever the rules say, or null when rules may cover it. */
export function ruleIneligibility(parsed: ParsedCommand): string | null {
  if (!parsed.complete) return 'it has an unclosed quote, substitution or here-document'
  if (parsed.hasSubstitution) return 'it runs commands inside $( ) or backticks'
  const writes = parsed.writeRedirects.filter((target) => !HARMLESS_REDIRECTS.has(target))
  if (writes.length > 0) return `it redirects output into ${writes.join(', ')}`
  if (parsed.segments.length === 0) return 'it runs nothing'
  return null
}

/** True when every simple command is covered by one of the patterns and the command is eligible at all. */
export function commandCoveredBy(parsed: ParsedCommand, patterns: ReadonlyArray<string>): boolean {
  if (ruleIneligibility(parsed) !== null) return false
  const prefixes = patterns.map(patternWords)
  return parsed.segments.every((segment) => prefixes.some((prefix) => startsWithWords(segment.words, prefix)))
}

/**
 * The first pattern matching any simple command, substitutions included, looked at both as written and through
 * assignments and wrappers (`FOO=1 /usr/bin/git push` matches `git push`). Used for deny rules.
 */
export function findMatchingPattern(parsed: ParsedCommand, patterns: ReadonlyArray<string>): string | null {
  const views = parsed.segments.flatMap((segment) => {
    const seen = programOf(segment)
    return seen === null ? [segment.words] : [segment.words, [seen.program, ...seen.args]]
  })
  return patterns.find((pattern) => views.some((words) => startsWithWords(words, patternWords(pattern)))) ?? null
}

/**
 * Programs that run whatever their arguments say: "always allow python" would allow everything, so for these the
 * suggested pattern is the whole simple command.
 */
const RUNS_ANYTHING = new Set([
  'bash', 'sh', 'zsh', 'dash', 'fish', 'ksh', 'eval', 'exec', 'env', 'xargs', 'sudo', 'su', 'doas', 'nohup', 'time',
  'timeout', 'nice', 'python', 'python3', 'node', 'deno', 'bun', 'ruby', 'perl', 'php', 'npx', 'bunx', 'pnpx', 'ssh',
])

/** A subcommand is a plain lowercase word (`test`, `run`, `build:prod`), not a flag, path or value. */
const SUBCOMMAND = /^[a-z][a-z0-9_:-]*$/

function suggestForSegment(segment: CommandSegment): string {
  const words = segment.words
  const first = words[0] ?? ''
  if (RUNS_ANYTHING.has(first) || !/^[A-Za-z0-9_./-]+$/.test(first)) return words.join(' ')
  const kept = [first]
  for (const word of words.slice(1, 3)) {
    if (!SUBCOMMAND.test(word)) break
    kept.push(word)
  }
  return kept.join(' ')
}

/**
 * The "always for this command pattern" rules to offer for a command not yet covered: one per simple command
 * that no existing pattern covers. Empty when the command is not eligible for rules at all.
 */
export function suggestCommandPatterns(parsed: ParsedCommand, existing: ReadonlyArray<string>): ReadonlyArray<string> {
  if (ruleIneligibility(parsed) !== null) return []
  const prefixes = existing.map(patternWords)
  const suggestions: string[] = []
  for (const segment of parsed.segments) {
    if (prefixes.some((prefix) => startsWithWords(segment.words, prefix))) continue
    const suggestion = suggestForSegment(segment)
    if (!suggestions.includes(suggestion)) suggestions.push(suggestion)
  }
  return suggestions
}

// ---------------------------------------------------------------------------------------------------------------
// The built-in deny list: commands refused in auto mode whatever the rules say, and never offered an "always" rule
// in build mode. A guard rail against the worst single commands, not a sandbox: bash runs with the user's rights.

export interface DangerousCommand {
  readonly id: string
  readonly reason: string
}

const PRIVILEGE = new Set(['sudo', 'su', 'doas', 'pkexec', 'runas'])
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'python', 'python3', 'perl', 'ruby', 'node'])
const DOWNLOADERS = new Set(['curl', 'wget'])
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff'])
/** Targets whose recursive deletion or permission change wrecks the machine, the home folder or the project. */
const CATASTROPHIC_TARGETS = new Set(['/', '/*', '~', '~/', '~/*', '$HOME', '$HOME/', '$HOME/*', '${HOME}', '.', './', '*', './*', '..', '../'])
const FORK_BOMB = /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/

function isRecursive(args: ReadonlyArray<string>): boolean {
  return args.some((a) => a === '--recursive' || /^-[a-zA-Z]*[rR][a-zA-Z]*$/.test(a))
}

/**
 * Loupe's own data folder (its sessions database, its API key, its logs), for the deny list: a command that names it
 * is treated as dangerous. The write tools already refuse it (node/tools/project-fs.ts); a command could read the
 * key and send it anywhere, or delete the sessions, so the user decides each time.
 */
export interface DataFolderGuard {
  /** The data folder, absolute. */
  readonly dataDir: string
  /** The user's home folder, absolute, when known: `~/…` and `$HOME/…` spell the folder too. */
  readonly home: string | null
  /** Where commands run (the project root), absolute: a relative path names the folder when it lies inside. */
  readonly cwd: string
}

export function findDangerousCommand(command: string, guard?: DataFolderGuard): DangerousCommand | null {
  if (FORK_BOMB.test(command)) return { id: 'fork_bomb', reason: 'it is a fork bomb' }
  const named = guard ? namedDataFolder(command, guard) : null
  if (named !== null) return { id: 'data_folder', reason: `it names Loupe's data folder (${named}), which holds its sessions and API key` }
  const parsed = parseCommand(command)
  const programs = parsed.segments.map(programOf).filter((p) => p !== null)
  for (const { program, args } of programs) {
    if (PRIVILEGE.has(program)) return { id: 'privilege', reason: `it runs ${program}, which asks for elevated privileges` }
    if (POWER.has(program)) return { id: 'power', reason: `it runs ${program}, which stops the machine` }
    if (/^mkfs(\.|$)/.test(program) || program === 'fdisk' || program === 'parted' || program === 'wipefs') {
      return { id: 'disk', reason: `it runs ${program}, which rewrites a disk` }
    }
    if (program === 'dd' && args.some((a) => a.startsWith('of=/dev/'))) return { id: 'disk', reason: 'dd writes to a device' }
    if ((program === 'rm' || program === 'chmod' || program === 'chown') && isRecursive(args)) {
      const target = args.find((a) => CATASTROPHIC_TARGETS.has(a) || a === '--no-preserve-root')
      if (target !== undefined) return { id: 'recursive_root', reason: `${program} -r on ${target} would wreck the system, home folder or project` }
    }
    if (program === 'git' && args[0] === 'push' && args.some((a) => a === '--force' || a === '-f' || a.startsWith('--force-with-lease') || /^\+/.test(a))) {
      return { id: 'force_push', reason: 'git push --force rewrites the remote history' }
    }
  }
  if (programs.some((p) => DOWNLOADERS.has(p.program)) && programs.some((p) => SHELLS.has(p.program))) {
    return { id: 'download_and_run', reason: 'it downloads a script and runs it (curl | sh)' }
  }
  if (parsed.writeRedirects.some((t) => /^\/dev\/(sd|nvme|hd|vd|xvd|disk|mmcblk)/.test(t))) {
    return { id: 'disk', reason: 'it writes to a disk device' }
  }
  return null
}

/** Characters that continue a path word: a spelling followed by one names another file (`.loupe-old`). */
const PATH_CHAR = /[A-Za-z0-9._~$-]/

/** The spellings of the data folder in a command line: absolute, from the home folder, from where the command runs. */
function dataFolderSpellings(guard: DataFolderGuard): string[] {
  const dir = trimSlash(guard.dataDir)
  const spellings = [dir, '$LOUPE_HOME', '${LOUPE_HOME}']
  const home = guard.home === null ? null : trimSlash(guard.home)
  if (home !== null && home !== '' && dir.startsWith(`${home}/`)) {
    const rel = dir.slice(home.length + 1)
    spellings.push(`~/${rel}`, `$HOME/${rel}`, `\${HOME}/${rel}`)
  }
  const cwd = trimSlash(guard.cwd)
  if (dir.startsWith(`${cwd}/`)) {
    const rel = dir.slice(cwd.length + 1)
    spellings.push(`./${rel}`, rel)
  }
  return spellings
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path
}

/**
 * The spelling of the data folder that `command` names (the folder or a file in it), or null. Read from the line as
 * written, quotes and all, so quoting does not hide it; a path built at run time (`cd ~ && cat .loupe/…`, a variable)
 * is not seen: a guard rail, not a sandbox.
 */
function namedDataFolder(command: string, guard: DataFolderGuard): string | null {
  for (const spelling of dataFolderSpellings(guard)) {
    for (let at = command.indexOf(spelling); at !== -1; at = command.indexOf(spelling, at + 1)) {
      const before = at === 0 ? '' : command[at - 1]!
      const after = command[at + spelling.length] ?? ''
      // A relative spelling inside a longer path (`src/.loupe`) or a word that goes on (`.loupe-old`) is another file.
      if ((before !== '' && (PATH_CHAR.test(before) || before === '/')) || (after !== '' && PATH_CHAR.test(after))) continue
      return spelling
    }
  }
  return null
}

