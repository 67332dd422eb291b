import { describe, expect, it } from 'vitest'
import { defaultSessionTitle, TITLE_FROM_MESSAGE_MAX_CHARS, titleFromMessage } from '../../../src-main/engine/conversation/title'

describe('session titles', () => {
  it('start as the local time the session was made', () => {
    expect(defaultSessionTitle(new Date(2026, 10, 29, 14, 2, 59).getTime())).toBe('Session 2026-11-29 14:02')
  })

  it("are taken from the first message's first line with text, its spaces collapsed", () => {
    expect(titleFromMessage('\n\n   fix   the\tlogin bug  \nsee the stack trace below')).toBe('fix the login bug')
    expect(titleFromMessage(' \n\t\n')).toBeNull()
    // A command names nothing (the next message will); a path is not a command.
    expect(titleFromMessage('/compact keep the API notes')).toBeNull()
    expect(titleFromMessage('/compact')).toBeNull()
    expect(titleFromMessage('/home/me/app.ts fails to build')).toBe('/home/me/app.ts fails to build')
    // A message that opens with a code block is named by its first line of code, not by the fence.
    expect(titleFromMessage('```js\nconst a = b.c()\n```\nwhy does this throw?')).toBe('const a = b.c()')
  })

  it('are kept as every name is: no control, direction-override or invisible characters', () => {
    expect(titleFromMessage('\u200B\u202E\n\u0000fix the \u202Egnp.exe\u200B loader\u0007\nmore')).toBe('fix the gnp.exe loader')
    // A first line of only what a name cannot show names nothing; the next line with words does.
    expect(titleFromMessage('\u200B\u2060\uFEFF\nreal words')).toBe('real words')
    expect(titleFromMessage('\u0000\u202E')).toBeNull()
    const long = titleFromMessage(`${'\u001b[31mword\u001b[0m '.repeat(500)}`)!
    expect(long).toMatch(/^(word )+word…$/)
  })

  it("drop Markdown's marks, which the sidebar would show as typed", () => {
    expect(titleFromMessage('Here is my plan for the **greeter**:\n\n1. Add a `farewell` function')).toBe('Here is my plan for the greeter:')
    expect(titleFromMessage('## Bug: `parseDate` fails on __leap years__')).toBe('Bug: parseDate fails on leap years')
    expect(titleFromMessage('> quoted from the issue')).toBe('quoted from the issue')
    // A line of marks alone names nothing; the next line with words does.
    expect(titleFromMessage('#\nfix the build')).toBe('fix the build')
    // What only looks like a mark stays: a lone asterisk, a hash inside the line, a product name.
    expect(titleFromMessage('why is 2 ** 8 slow in C#?')).toBe('why is 2 ** 8 slow in C#?')
    expect(titleFromMessage('#123 is still open')).toBe('#123 is still open')
  })

  it('cut a long line at a word, or inside one long word, never inside a character', () => {
    const long = 'please refactor the session manager so that every window hears about renames and deletes at once'
    const title = titleFromMessage(long)!
    expect(title).toBe('please refactor the session manager so that every window…')
    expect(Array.from(title).length).toBeLessThanOrEqual(TITLE_FROM_MESSAGE_MAX_CHARS + 1)
    const path = `open ${'/very/long/path'.repeat(10)}`
    expect(titleFromMessage(path)).toBe(`${Array.from(path).slice(0, TITLE_FROM_MESSAGE_MAX_CHARS).join('')}…`)
    const emoji = '🙂'.repeat(TITLE_FROM_MESSAGE_MAX_CHARS + 5)
    expect(titleFromMessage(emoji)).toBe(`${'🙂'.repeat(TITLE_FROM_MESSAGE_MAX_CHARS)}…`)
  })
})
