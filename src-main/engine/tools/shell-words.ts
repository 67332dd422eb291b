/**
 * A small reader of POSIX shell command lines: enough to split a command into the simple commands it runs, so that
 * an "always allow `npm test`" rule never lets `npm test && rm -rf src` through, and a deny rule sees commands
 * hidden in `$( … )`. It is deliberately conservative: whatever it cannot read with certainty (command
 * substitution, redirection into files, unclosed quotes) makes a command ineligible for automatic approval.
 * It does not execute or expand anything.
 */

export interface CommandSegment {
  /** Words after quote removal. `$(…)` inside a word is kept as the placeholder `$(…)`. */
  readonly words: ReadonlyArray<string>
  /** The operator that ended the previous segment (`|` for the right side of a pipe), or null for the first. */
  readonly after: string | null
}

export interface ParsedCommand {
  readonly segments: ReadonlyArray<CommandSegment>
  /** `$( … )`, backticks, `<( … )` or `>( … )` appear outside single quotes: what runs is not fully visible. */
  readonly hasSubstitution: boolean
  /** Targets of output redirections into files (`>`, `>>`, `&>`, `>|`); fd duplications like `2>&1` are not here. */
  readonly writeRedirects: ReadonlyArray<string>
  /** False when a quote, substitution or here-document is left open. */
  readonly complete: boolean
}

const OPERATORS = ['&&', '||', ';;', '|&', '|', ';', '&', '\n'] as const
const PLACEHOLDER = '$(…)'

interface Frame {
  words: string[]
  word: string | null
  quote: 'none' | 'double'
  closer: ')' | '`'
}

export function parseCommand(command: string): ParsedCommand {
  const segments: CommandSegment[] = []
  const writeRedirects: string[] = []
  const stack: Frame[] = []
  const heredocs: string[] = []
  let hasSubstitution = false
  let words: string[] = []
  let word: string | null = null
  let quote: 'none' | 'single' | 'double' = 'none'
  let after: string | null = null
  let redirect: 'write' | 'read' | 'heredoc' | null = null
  let complete = true

  const endWord = (): void => {
    if (word === null) return
    if (redirect === 'write') writeRedirects.push(word)
    else if (redirect === 'heredoc') heredocs.push(word)
    else if (redirect === null) words.push(word)
    redirect = null
    word = null
  }
  const endSegment = (operator: string | null): void => {
    endWord()
    if (words.length > 0) segments.push({ words, after })
    words = []
    after = operator
  }
  const append = (text: string): void => {
    word = (word ?? '') + text
  }
  const open = (closer: ')' | '`'): void => {
    hasSubstitution = true
    stack.push({ words, word, quote: quote === 'double' ? 'double' : 'none', closer })
    words = []
    word = null
    quote = 'none'
    after = null
  }
  const close = (): void => {
    endSegment(null)
    const frame = stack.pop()!
    words = frame.words
    word = (frame.word ?? '') + PLACEHOLDER
    quote = frame.quote
    after = null
  }
  /** Skips here-document bodies that start after this newline; returns the index of the last character consumed. */
  const skipHeredocs = (newlineAt: number): number => {
    let i = newlineAt
    while (heredocs.length > 0) {
      const delimiter = heredocs.shift()!
      let found = false
      while (i < command.length - 1) {
        const start = i + 1
        const end = command.indexOf('\n', start)
        const line = command.slice(start, end === -1 ? command.length : end)
        i = end === -1 ? command.length - 1 : end
        if (line.includes('$(') || line.includes('`')) hasSubstitution = true
        if (line.replace(/^\t+/, '') === delimiter) {
          found = true
          break
        }
      }
      if (!found) complete = false
    }
    return i
  }

  for (let i = 0; i < command.length; i++) {
    const c = command[i]!
    const next = command[i + 1] ?? ''
    if (quote === 'single') {
      if (c === "'") quote = 'none'
      else append(c)
      continue
    }
    if (c === '\\') {
      if (next === '\n') i++
      else if (next !== '') {
        append(quote === 'double' && !'$`"\\'.includes(next) ? `\\${next}` : next)
        i++
      }
      continue
    }
    if (c === '$' && next === '(' && command[i + 2] !== '(') {
      i++
      open(')')
      continue
    }
    if (c === '`') {
      const top = stack[stack.length - 1]
      if (top?.closer === '`' && quote === 'none') close()
      else open('`')
      continue
    }
    if (quote === 'double') {
      if (c === '"') quote = 'none'
      else append(c)
      continue
    }
    // Outside quotes from here on.
    if (c === "'" || c === '"') {
      quote = c === "'" ? 'single' : 'double'
      append('')
      continue
    }
    if ((c === '<' || c === '>') && next === '(') {
      i++
      open(')')
      continue
    }
    if (c === ')') {
      if (stack[stack.length - 1]?.closer === ')') close()
      else endSegment(')')
      continue
    }
    if (c === '(' ) {
      endSegment('(')
      continue
    }
    if (c === '#' && word === null) {
      const end = command.indexOf('\n', i)
      i = (end === -1 ? command.length : end) - 1
      continue
    }
    if (c === ' ' || c === '\t') {
      endWord()
      continue
    }
    if (c === '>' || c === '<' || (c === '&' && next === '>')) {
      // A word made only of digits right before the operator is a file descriptor (`2>`), not an argument.
      if (word !== null && /^\d+$/.test(word)) word = null
      else endWord()
      const op = c === '&' ? command.slice(i, i + 3).replace(/[^&>]/g, '') : command.slice(i).match(/^(<<<|<<-|<<|<>|<&|>>|>&|>\||<|>)/)![0]
      i += op.length - 1
      if (op === '>&' || op === '<&') {
        // `>&2`, `2>&1`, `>&-`: duplicates a descriptor. `>& file` (a bash synonym of `&>`) writes a file.
        const target = command.slice(i + 1).match(/^\s*([^\s;&|()<>]+)/)?.[1] ?? ''
        redirect = /^(\d+|-)$/.test(target) ? 'read' : 'write'
      } else if (op.startsWith('<<') && op !== '<<<') redirect = 'heredoc'
      else redirect = op.includes('>') ? 'write' : 'read'
      continue
    }
    const operator = OPERATORS.find((candidate) => command.startsWith(candidate, i))
    if (operator !== undefined) {
      endSegment(operator === '\n' ? ';' : operator)
      i += operator.length - 1
      if (operator === '\n') i = skipHeredocs(i)
      continue
    }
    append(c)
  }
  if (quote !== 'none' || stack.length > 0) complete = false
  while (stack.length > 0) close()
  endSegment(null)
  if (heredocs.length > 0) complete = false
  return { segments, hasSubstitution, writeRedirects, complete }
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/
/** Commands that run another command given as their arguments. */
const WRAPPERS = new Set(['builtin', 'command', 'env', 'exec', 'nice', 'nohup', 'stdbuf', 'time', 'timeout', 'xargs'])

function basename(word: string): string {
  const slash = word.lastIndexOf('/')
  return slash === -1 ? word : word.slice(slash + 1)
}

/**
 * The program a segment runs, seen through variable assignments and wrappers (`FOO=1 nohup sudo x` → `sudo`),
 * without its folder (`/usr/bin/sudo` → `sudo`). Used by the deny list, which must not be dodged by a prefix.
 */
export function programOf(segment: CommandSegment): { readonly program: string; readonly args: ReadonlyArray<string> } | null {
  const words = segment.words
  let i = 0
  while (i < words.length) {
    const w = words[i]!
    if (ASSIGNMENT.test(w)) i++
    else if (WRAPPERS.has(basename(w))) {
      i++
      while (i < words.length && (/^-/.test(words[i]!) || /^\d+(\.\d+)?[smhd]?$/.test(words[i]!) || ASSIGNMENT.test(words[i]!))) i++
    } else break
  }
  const program = words[i]
  return program === undefined ? null : { program: basename(program), args: words.slice(i + 1) }
}
