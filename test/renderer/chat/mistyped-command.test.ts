/** A slash command typed wrong is held once (decision 0045); paths, words and other text are sent as written. */
import { describe, expect, it } from 'vitest'
import { commandButtonLabel, editDistanceAtMostOne, mistypedCommand, mistypedWords, SLASH_COMMANDS } from '../../../src-renderer/features/chat/mistyped-command'
import { isCompactCommand } from '../../../src-renderer/features/chat/compact-command'

describe('a mistyped slash command', () => {
  it('is held when its word is one slip from /compact, with the argument kept', () => {
    expect(mistypedCommand('/compcat')).toEqual({ typed: '/compcat', command: '/compact', argument: '', corrected: '/compact' })
    expect(mistypedCommand('/comapct focus on tests')).toEqual({ typed: '/comapct', command: '/compact', argument: 'focus on tests', corrected: '/compact focus on tests' })
    // Swapped, dropped, added, changed, in another case; an argument on the next lines; spaces around.
    for (const typed of ['/cmopact', '/compatc', '/compac', '/cmpact', '/compactt', '/ccompact', '/compsct', '/vompact', '/Compact', '/COMPACT', '  /compcat  ']) {
      expect(mistypedCommand(typed)?.corrected, typed).toBe('/compact')
    }
    expect(mistypedCommand('/compcat\n\nkeep the API decisions\nand the schema')?.corrected).toBe('/compact keep the API decisions\nand the schema')
    // What the "Use /compact" button sends is a command the box runs.
    expect(isCompactCommand(mistypedCommand('/comapct focus on tests')!.corrected)).toBe(true)
  })

  it('is not a command typed right', () => {
    expect(mistypedCommand('/compact')).toBeNull()
    expect(mistypedCommand('/compact focus on tests')).toBeNull()
    expect(mistypedCommand('  /compact\nkeep the schema')).toBeNull()
  })

  it('is never a path, a word near the command, or a slash inside the text', () => {
    const sent = [
      // Paths and path-like words.
      '/usr/bin',
      '/usr/bin/env is missing',
      '/compact/notes.md',
      '/compat/linux is where the shims live',
      '/etc/hosts',
      '/tmp',
      '/home/me/project',
      // English words two slips or more from "compact", and those one slip away that are words of their own.
      '/compare these two files',
      '/compat mode breaks the build',
      '/compacts',
      '/compart',
      '/compacted',
      '/compaction',
      '/compactor',
      '/contact the API owner',
      '/compost',
      '/impact of the change',
      '/company',
      '/comp',
      '/c',
      '/',
      // Not at the start, not a word right after the slash, not letters.
      'please /compcat',
      'run /compact later',
      '/ compcat',
      '/compcat: now',
      '/compcat.',
      '/c0mpact',
      '//compcat',
      // Other commands Claude Code knows are not Loupe's, and are sent as written.
      '/clear',
      '/help',
      '/model opus',
      '/init',
      '/review',
    ]
    for (const text of sent) expect(mistypedCommand(text), text).toBeNull()
  })

  it('counts one slip: a letter added, dropped, changed, or two neighbours swapped', () => {
    expect(editDistanceAtMostOne('compact', 'compact')).toBe(true)
    expect(editDistanceAtMostOne('compcat', 'compact')).toBe(true)
    expect(editDistanceAtMostOne('ocmpact', 'compact')).toBe(true)
    expect(editDistanceAtMostOne('compacx', 'compact')).toBe(true)
    expect(editDistanceAtMostOne('xcompact', 'compact')).toBe(true)
    expect(editDistanceAtMostOne('ompact', 'compact')).toBe(true)
    expect(editDistanceAtMostOne('compare', 'compact')).toBe(false)
    expect(editDistanceAtMostOne('cmpcat', 'compact')).toBe(false)
    expect(editDistanceAtMostOne('compacted', 'compact')).toBe(false)
    // Two swaps, or a swap of letters that are not neighbours, are two slips.
    expect(editDistanceAtMostOne('ocmpcat', 'compact')).toBe(false)
    expect(editDistanceAtMostOne('camport', 'compact')).toBe(false)
    expect(editDistanceAtMostOne('tompacc', 'compact')).toBe(false)
  })

  it('lists as words of their own only words one slip from their command', () => {
    for (const { name, words } of SLASH_COMMANDS) for (const w of words) expect(editDistanceAtMostOne(w, name), w).toBe(true)
  })

  it('says what it looks like and how to send it as written', () => {
    const m = mistypedCommand('/comapct focus on tests')!
    expect(mistypedWords(m)).toBe('Not sent: “/comapct” looks like /compact. Press Enter again to send your message to the model as written.')
    expect(commandButtonLabel(m)).toBe('Use /compact')
  })
})
