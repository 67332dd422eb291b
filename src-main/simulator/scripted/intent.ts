/**
 * What the user's words ask for, read with a handful of patterns. Deterministic: the same words always give the
 * same intent. The patterns are the demo vocabulary listed in docs/simulator.md ("list the root", "read F",
 * "find "word"", "replace "A" with "B" in F", "run CMD", "remember …", …).
 */

export type Intent =
  | { readonly kind: 'summary' }
  | { readonly kind: 'remember'; readonly fact: string; readonly scope: 'project' | 'user' }
  | { readonly kind: 'edit'; readonly path: string; readonly oldString: string; readonly newString: string }
  | { readonly kind: 'write'; readonly path: string; readonly content: string }
  | { readonly kind: 'run'; readonly command: string }
  | { readonly kind: 'grep'; readonly pattern: string; readonly path: string | null }
  | { readonly kind: 'glob'; readonly pattern: string }
  | { readonly kind: 'read'; readonly paths: ReadonlyArray<string> }
  | { readonly kind: 'list'; readonly path: string }
  | { readonly kind: 'explore' }
  | { readonly kind: 'todo'; readonly items: ReadonlyArray<string> }
  | { readonly kind: 'skill'; readonly name: string }
  | { readonly kind: 'compact'; readonly focus: string | null }
  | { readonly kind: 'chat' }

const QUOTED = String.raw`(?:"([^"]+)"|'([^']+)'|\x60([^\x60]+)\x60|“([^”]+)”)`
const PATH_TOKEN = /(?:^|[\s`'"(\[])((?:\.{1,2}\/|\/)?(?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,7}|(?:[\w@.-]+\/)*(?:Makefile|Dockerfile|LICENSE|README|Gemfile|Procfile))(?=$|[\s`'",;:)\]?!]|\.(?:\s|$))/g
const MAX_PARALLEL_READS = 3

function firstQuoted(match: RegExpMatchArray, from: number): string {
  for (let i = from; i < from + 4; i++) if (match[i] !== undefined) return match[i]!
  return ''
}

/** File-like tokens in the text, in order, without duplicates ("e.g." and version numbers are not files). */
export function pathsIn(text: string): string[] {
  const found: string[] = []
  for (const m of text.matchAll(PATH_TOKEN)) {
    const path = m[1]!.replace(/[.,;:]+$/, '')
    if (/^(e\.g|i\.e|etc|vs)$/i.test(path) || /^\d/.test(path.split('/').pop() ?? '')) continue
    if (!found.includes(path)) found.push(path)
  }
  return found
}

function quotedAll(text: string): string[] {
  return [...text.matchAll(new RegExp(QUOTED, 'g'))].map((m) => firstQuoted(m, 1))
}

function sentenceAfter(text: string, at: number): string {
  return text.slice(at).split(/\n/)[0]!.replace(/[.!?]+\s*$/, '').trim()
}

export function isSummaryRequest(text: string): boolean {
  return /\bsummar(?:y|ize|ise)\b/i.test(text) && /\b(conversation|session|so far|transcript|history)\b/i.test(text)
}

export function parseIntent(text: string): Intent {
  const t = text.trim()
  if (isSummaryRequest(t)) return { kind: 'summary' }

  const remember = t.match(/^(?:please\s+)?(?:remember|note|don'?t forget)(?:\s+that)?[:\s]+([\s\S]+)$/i)
  if (remember) {
    const fact = remember[1]!.trim().replace(/[.!]+$/, '')
    const scope = /\b(always|every project|all projects|globally|for me|my preference|i prefer|i like)\b/i.test(fact) ? 'user' : 'project'
    return { kind: 'remember', fact, scope }
  }

  const replace = t.match(new RegExp(String.raw`\b(?:replace|change|rename)\s+${QUOTED}\s+(?:with|to|by)\s+${QUOTED}\s+in\s+(\S+)`, 'i'))
  if (replace) {
    return { kind: 'edit', oldString: firstQuoted(replace, 1), newString: firstQuoted(replace, 5), path: replace[9]!.replace(/^[`'"]|[`'".,;:!?]+$/g, '') }
  }

  const write = t.match(/\b(?:create|write|add)\s+(?:a\s+)?(?:new\s+)?file\s+(\S+?)[`'"]?(?:\s+(?:with|containing|that says)\s+([\s\S]+))?$/i)
  if (write) {
    const content = write[2] ? (quotedAll(write[2])[0] ?? write[2].trim()) : ''
    return { kind: 'write', path: write[1]!.replace(/^[`'"]/, ''), content: content.endsWith('\n') ? content : `${content}\n` }
  }

  const run = t.match(/\b(?:run|execute)\s+(?:the\s+command\s+)?(?:\x60([^\x60]+)\x60|"([^"]+)"|(.+))/i)
  if (run && !/\b(?:skill)\b/i.test(t)) {
    const command = (run[1] ?? run[2] ?? sentenceAfter(run[3]!, 0)).trim()
    if (/^(?:the\s+)?tests?$/i.test(command)) return { kind: 'run', command: 'npm test' }
    if (command.length > 0) return { kind: 'run', command }
  }

  const skill = t.match(/(?:^\/skill\s+|\b(?:use|load|run|apply)\s+(?:the\s+)?skill\s+|\bskill\s+)[`'"]?([\w:-]+)/i)
  if (skill) return { kind: 'skill', name: skill[1]! }

  if (/^\/?compact\b|\bcompact (?:the |this )?(?:conversation|session|context)\b/i.test(t)) {
    const focus = t.match(/\bfocus(?:ing)?(?:\s+on)?[:\s]+(.+)$/i)
    return { kind: 'compact', focus: focus ? focus[1]!.trim().replace(/[.!]+$/, '') : null }
  }

  const quoted = quotedAll(t)
  if (quoted.length > 0 && /\b(find|search|grep|where|look for|occurrences?|usages?|references?|mentions?)\b/i.test(t)) {
    const paths = pathsIn(t.replace(new RegExp(QUOTED, 'g'), ' '))
    // A quoted word is meant literally; grep takes a regular expression, so escape it.
    return { kind: 'grep', pattern: quoted[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), path: paths[0] ?? null }
  }
  const bareGrep = t.match(/^grep\s+(\S+)(?:\s+(\S+))?/i)
  if (bareGrep) return { kind: 'grep', pattern: bareGrep[1]!, path: bareGrep[2] ?? null }

  const glob = t.match(/\b(?:files?\s+matching|glob)\s+[`'"]?([^\s`'"]+)/i) ?? t.match(/(?:^|\s)[`'"]?((?:[\w.-]+\/)*\*[^\s`'"]*)/)
  if (glob) return { kind: 'glob', pattern: glob[1]! }

  // Not inside a path: "read src/todo.js" and "open TODO.md" are reads, not a todo list.
  if (/(?<![\w./-])(?:todo|to-do|checklist|plan (?:out|the steps)|make a plan)(?:-list)?(?![\w/-]|\.\w)/i.test(t)) {
    const body = t.replace(/^[^:]*:/, '')
    const items = body.split(/\n|;|,|\bthen\b/i).map((s) => s.replace(/^\s*(?:[-*]|\d+[.)])\s*/, '').trim()).filter((s) => s.length > 2)
    return { kind: 'todo', items: items.length > 0 ? items.slice(0, 8) : [t] }
  }

  const paths = pathsIn(t)
  if (paths.length > 0 && !/\b(list|ls)\b/i.test(t)) return { kind: 'read', paths: paths.slice(0, MAX_PARALLEL_READS) }
  // "read bin/run", "cat outside_link": a message that is only the verb and one word names a file, with or without
  // an extension ("read the docs" is not one).
  const bareRead = t.match(/^(?:please\s+)?(?:read|open|cat)\s+[`'"]?((?:\.{1,2}\/|\/)?[\w@-][\w@.-]*(?:\/[\w@.-]+)*)[`'"]?[.!?]?$/i)
  if (bareRead && !/^(?:the|this|that|it|me|file|files|everything)$/i.test(bareRead[1]!)) return { kind: 'read', paths: [bareRead[1]!] }

  const list = t.match(/\b(?:list|ls|show(?:\s+me)?\s+(?:the\s+)?(?:files|contents)|what(?:'s| is)\s+in|contents\s+of)\b(?:\s+(?:the\s+|this\s+|my\s+|our\s+|your\s+)?(?:files\s+in\s+|contents\s+of\s+|directory\s+|folder\s+)?)?([\w./@-]+)?/i)
  if (list) {
    const target = list[1]
    const root = !target || /^(root|the|this|it|project|repo|repository|here|files|directory|folder|top|everything)$/i.test(target)
    return { kind: 'list', path: root ? '.' : target.replace(/\/+$/, '') }
  }

  if (/\b(project|repo|repository|codebase|code base)\b/i.test(t) && /\b(what|explain|describe|overview|about|explore|tell|look|understand|structure)\b/i.test(t)) {
    return { kind: 'explore' }
  }
  return { kind: 'chat' }
}
