/**
 * YAML frontmatter of rule files (`paths:`) and skill files (`name`, `description`), parsed with the `yaml` library.
 * Nothing here throws: a block that does not parse comes back as `bad` with the parser's message.
 */
import { parse } from 'yaml'

export type Frontmatter =
  | { readonly kind: 'none'; readonly body: string }
  | { readonly kind: 'ok'; readonly data: Readonly<Record<string, unknown>>; readonly body: string }
  | { readonly kind: 'bad'; readonly error: string; readonly body: string }

/** Longest frontmatter block parsed; a longer one is reported as bad rather than fed to the parser. */
const MAX_FRONTMATTER_CHARS = 16_000

/**
 * Splits a leading `---` … `---` block from the body. A file whose first line is `---` but which has no closing
 * line has no frontmatter (a thematic break), and is returned whole.
 */
export function splitFrontmatter(text: string): Frontmatter {
  const firstBreak = text.indexOf('\n')
  if (firstBreak < 0 || text.slice(0, firstBreak).trimEnd() !== '---') return { kind: 'none', body: text }
  let lineStart = firstBreak + 1
  while (lineStart <= text.length) {
    const lineEnd = text.indexOf('\n', lineStart)
    const end = lineEnd < 0 ? text.length : lineEnd
    const line = text.slice(lineStart, end).trimEnd()
    if (line === '---' || line === '...') {
      const yamlText = text.slice(firstBreak + 1, lineStart)
      const body = lineEnd < 0 ? '' : text.slice(lineEnd + 1)
      return parseBlock(yamlText, body)
    }
    if (lineEnd < 0) break
    lineStart = lineEnd + 1
  }
  return { kind: 'none', body: text }
}

function parseBlock(yamlText: string, body: string): Frontmatter {
  if (yamlText.length > MAX_FRONTMATTER_CHARS) {
    return { kind: 'bad', error: `frontmatter longer than ${MAX_FRONTMATTER_CHARS} characters`, body }
  }
  let data: unknown
  try {
    // maxAliasCount bounds alias expansion ("billion laughs"); the files are untrusted.
    data = parse(yamlText, { maxAliasCount: 16, prettyErrors: false, logLevel: 'error' })
  } catch (err) {
    return { kind: 'bad', error: firstLine(err instanceof Error ? err.message : String(err)), body }
  }
  if (data === null || data === undefined) return { kind: 'ok', data: {}, body }
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { kind: 'bad', error: 'frontmatter is not a mapping of keys to values', body }
  }
  return { kind: 'ok', data: data as Record<string, unknown>, body }
}

function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}

/** At most this many `paths:` globs per rule are kept. */
const MAX_RULE_PATTERNS = 100

export type RuleScope =
  | { readonly kind: 'always'; readonly body: string }
  | { readonly kind: 'paths'; readonly patterns: ReadonlyArray<string>; readonly body: string }
  /** Frontmatter that does not parse, or a `paths:` that is not a glob or a list of globs. */
  | { readonly kind: 'bad'; readonly error: string; readonly body: string }

/** A rule without `paths:` always applies; with it, only when a matching file is read or edited. */
export function ruleScope(text: string): RuleScope {
  const fm = splitFrontmatter(text)
  switch (fm.kind) {
    case 'none':
      return { kind: 'always', body: fm.body }
    case 'bad':
      return { kind: 'bad', error: fm.error, body: fm.body }
    case 'ok': {
      const paths = fm.data.paths
      if (paths === undefined || paths === null) return { kind: 'always', body: fm.body }
      const list = typeof paths === 'string' ? [paths] : paths
      if (!Array.isArray(list) || list.length === 0 || !list.every((p) => typeof p === 'string' && p.trim() !== '')) {
        return { kind: 'bad', error: '`paths:` must be a glob or a non-empty list of globs', body: fm.body }
      }
      return { kind: 'paths', patterns: (list as string[]).slice(0, MAX_RULE_PATTERNS).map((p) => p.trim()), body: fm.body }
    }
  }
}
