/**
 * Stage 1, no model call: tool results before the split longer than `trimAboveChars` (1,000) are cut to
 * `trimKeepChars` (200) plus a note that says what was cut and how to read it again (docs/compaction.md
 * "Stage 1, no model call"). Written as the built-in `context` extension `trim-old-tools`, against the same interface
 * a project's would use.
 */
import type { ContextBuilder, ContextEdit, ContextEntryView } from './extensions'
import type { CompactionSettings } from './settings'

/** Marks a trimmed result so it is never trimmed twice and the inspector can find it. */
export const TRIM_MARKER = '[Loupe trimmed this tool result at a compaction:'

const INPUT_SHOWN_CHARS = 200

function field(input: unknown, key: string): unknown {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[key] : undefined
}

function shortJson(input: unknown): string {
  const json = JSON.stringify(input ?? {})
  return json.length > INPUT_SHOWN_CHARS ? `${json.slice(0, INPUT_SHOWN_CHARS)}…` : json
}

/** How to see the cut part again, in words the model can act on. */
export function howToReadAgain(call: { readonly name: string; readonly input: unknown } | null): string {
  if (call === null) return 'Repeat the call that produced it to see it again.'
  const path = field(call.input, 'path') ?? field(call.input, 'file_path')
  switch (call.name) {
    case 'read_file':
    case 'Read':
      return typeof path === 'string' ? `Call read_file with path ${JSON.stringify(path)} to read it again.` : 'Read the file again to see it.'
    case 'bash':
    case 'Bash': {
      const command = field(call.input, 'command')
      return typeof command === 'string' ? `Run the command again if its output is needed: ${shortJson(command)}.` : 'Run the command again if its output is needed.'
    }
    default:
      return `Call ${call.name} again with ${shortJson(call.input)} to see it again.`
  }
}

/** The trimmed text, or null when the result is short enough (or was trimmed already). */
export function trimToolResult(content: string, call: { readonly name: string; readonly input: unknown } | null, settings: Pick<CompactionSettings, 'trimAboveChars' | 'trimKeepChars'>): string | null {
  if (content.length <= settings.trimAboveChars || content.includes(TRIM_MARKER)) return null
  // Never cut a UTF-16 surrogate pair in half: the API would receive an invalid string.
  let keep = settings.trimKeepChars
  const code = content.charCodeAt(keep - 1)
  if (keep > 0 && code >= 0xd800 && code <= 0xdbff) keep -= 1
  const cut = content.length - keep
  return `${content.slice(0, keep)}\n${TRIM_MARKER} ${cut.toLocaleString('en-US')} of ${content.length.toLocaleString('en-US')} characters cut, the first ${keep.toLocaleString('en-US')} kept. ${howToReadAgain(call)}]`
}

export function trimEdits(entries: ReadonlyArray<ContextEntryView>, settings: CompactionSettings): ContextEdit[] {
  const edits: ContextEdit[] = []
  for (const e of entries) {
    if (!e.editable || e.kind !== 'tool_result') continue
    const trimmed = trimToolResult(e.text, e.call, settings)
    if (trimmed !== null) edits.push({ entryId: e.entryId, action: 'replace', content: trimmed, reason: `trimmed from ${e.text.length} characters` })
  }
  return edits
}

/** Built in: trims old tool results at a compaction; edits nothing before an ordinary pass. */
export const trimOldTools: ContextBuilder = {
  name: 'trim-old-tools',
  edits(input) {
    return input.phase === 'compaction' ? trimEdits(input.entries, input.settings) : []
  },
}
