/**
 * After-the-breakpoint notes (docs/context-engine.md "After-the-breakpoint context"; the memory and file-change notes
 * in "Memory and skills" and "Changes mid-session"): context that becomes relevant mid-session travels in the
 * conversation instead of rewriting the frozen system block. A note is attached to one user message (a tool result or
 * the next user input) and stays on that message in every later pass, so its bytes never move.
 */
import { displayPath } from './sanitize'

export type ChangedFileKind = 'instructions' | 'rule' | 'memory' | 'skill'

export type ContextNote =
  /** A fact saved with `remember` this session; it joins the memory section at the next checkpoint. */
  | { readonly kind: 'memory_saved'; readonly scope: 'project' | 'user'; readonly text: string; readonly entryId: string }
  /** A nested AGENTS.md / CLAUDE.md (with its imports) that applies to a file just read or edited. */
  | {
      readonly kind: 'nested_instructions'
      /** The folder the file governs, relative to the root, ending in `/`. */
      readonly dir: string
      readonly path: string
      /** The file whose read or edit made it relevant. */
      readonly trigger: string
      /** Rendered entries (headings and text), already within budget. */
      readonly text: string
    }
  /** A `.claude/rules` file with `paths:` that matches a file just read or edited. */
  | {
      readonly kind: 'path_rule'
      readonly path: string
      readonly patterns: ReadonlyArray<string>
      readonly trigger: string
      readonly text: string
    }
  /** An instruction, rule, memory or skill file changed on disk after the session block was frozen. */
  | {
      readonly kind: 'file_changed'
      readonly path: string
      readonly fileKind: ChangedFileKind
      readonly change: 'modified' | 'added' | 'removed'
      readonly entryId: string | null
    }
  /** Anything else the loop needs to say after the breakpoints (todo state, a mode switch …). */
  | { readonly kind: 'text'; readonly label: string; readonly text: string; readonly entryId: string | null }

/** The file a note came from, for provenance. */
export function noteFile(note: ContextNote): string | null {
  switch (note.kind) {
    case 'nested_instructions':
    case 'path_rule':
    case 'file_changed':
      return note.path
    case 'memory_saved':
      return note.scope === 'project' ? '.loupe/memory.md' : '~/.loupe/memory.md'
    case 'text':
      return null
  }
}

export function noteEntryId(note: ContextNote): string | null {
  switch (note.kind) {
    case 'memory_saved':
      return note.entryId
    case 'file_changed':
    case 'text':
      return note.entryId
    case 'nested_instructions':
    case 'path_rule':
      return null
  }
}

/** The exact text of a note's block. Same note → same bytes. */
export function renderNote(note: ContextNote): string {
  switch (note.kind) {
    case 'memory_saved': {
      const where = note.scope === 'project' ? 'project memory (.loupe/memory.md)' : 'user memory (~/.loupe/memory.md)'
      return `[Memory saved to ${where}. It joins the memory section at the next compaction.]\n\n${note.text}`
    }
    case 'nested_instructions':
      return `[Instructions for ${displayPath(note.dir)}, which apply to ${displayPath(note.trigger)}:]\n\n${note.text}`
    case 'path_rule': {
      const globs = note.patterns.map((p) => `'${displayPath(p)}'`).join(', ')
      return `[Rule ${displayPath(note.path)} applies to ${displayPath(note.trigger)} (paths: ${globs}):]\n\n${note.text.trim()}`
    }
    case 'file_changed': {
      const path = displayPath(note.path)
      // A file created since has no earlier version above; one removed keeps its text above until the change is applied.
      if (note.change === 'added') return `[${path} was created on disk after this session's instructions were taken. It is not in them until the user applies the change.]`
      const what = note.change === 'removed' ? 'was removed' : 'was changed'
      return `[${path} ${what} on disk after this session's instructions were taken. The text above is the earlier version until the user applies the change.]`
    }
    case 'text':
      return `[${displayPath(note.label)}]\n\n${note.text}`
  }
}
