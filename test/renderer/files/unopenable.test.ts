/** Which files the Files view cannot edit, and the note that says why. */
import { describe, expect, it } from 'vitest'
import { refusedFile, unopenable } from '../../../src-renderer/features/files/unopenable'

const node = (status: string, reason: string | null) => ({ path: 'AGENTS.md', absPath: '/p/AGENTS.md', status: status as 'skipped', reason })

describe('unopenable', () => {
  it("reads why the prompt builder skipped a file from the listing's reason", () => {
    expect(unopenable(node('skipped', 'not read: it is larger than 1 MB'))).toMatchObject({ kind: 'too_large', path: 'AGENTS.md', absPath: '/p/AGENTS.md', why: expect.stringMatching(/larger than 1 MB/) })
    expect(unopenable(node('skipped', 'not read: it is a binary file'))?.kind).toBe('binary')
    expect(unopenable(node('skipped', '@logo.png: not read, it is a binary file'))?.kind).toBe('binary')
    expect(unopenable(node('skipped', 'not read: its real path is outside the project root and Loupe\'s own folder'))?.kind).toBe('outside')
    expect(unopenable(node('skipped', 'not read: it is not a regular file'))?.kind).toBe('not_a_file')
    expect(unopenable(node('skipped', 'not read: it could not be read'))?.kind).toBe('unreadable')
  })

  it("takes the listing's code when it gives one, whatever the words", () => {
    expect(unopenable({ ...node('skipped', 'not read: reworded by a later version'), skip: 'too_large' as const })?.kind).toBe('too_large')
    expect(unopenable({ ...node('skipped', null), skip: 'outside_allowed_roots' as const })?.kind).toBe('outside')
  })

  it("says why an unreadable file was not read in the reader's words: a broken link as one, an error code as a code", () => {
    const unreadable = (skipDetail: string) => unopenable({ ...node('skipped', 'not read: it could not be read'), skip: 'unreadable' as const, skipDetail })
    expect(unreadable('it is a symbolic link whose target does not exist (a broken link)')?.why).toBe('It is a symbolic link whose target does not exist (a broken link): the prompt builder skips it.')
    expect(unreadable('EACCES')?.why).toBe('It could not be read (EACCES; check its permissions): the prompt builder skips it.')
  })

  it('leaves every other file to be opened', () => {
    expect(unopenable(node('included', null))).toBeNull()
    expect(unopenable(node('cut', 'cut to fit the instructions budget: the model is told to read the rest'))).toBeNull()
    expect(unopenable(node('skipped', 'not reached (an import cycle or the depth limit)'))).toBeNull()
    expect(unopenable(node('skipped', 'not read: some reason a later version adds'))).toBeNull()
  })

  it("words a refusal from the main process without repeating the path", () => {
    expect(refusedFile('CLAUDE.md', null, 'CLAUDE.md cannot be edited here: it is not valid UTF-8, and saving it from a text editor would change bytes you did not touch')).toEqual({
      path: 'CLAUDE.md',
      absPath: null,
      kind: 'refused',
      why: 'It is not valid UTF-8, and saving it from a text editor would change bytes you did not touch.',
    })
  })
})
