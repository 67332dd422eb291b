import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeFixture, Session, type Fixture } from './fixture'

let fx: Fixture
let session: Session
beforeEach(() => {
  fx = makeFixture({ 'src/app.ts': 'const a = 1\nconst b = 2\nconst c = 3\n', 'bin.dat': 'ab\0cd' })
  session = new Session(fx)
})
afterEach(async () => {
  await session.executor.dispose()
  fx.cleanup()
})

const preview = (name: string, input: unknown) =>
  session.executor.preview!({ id: 'toolu_preview', name, input }, { signal: new AbortController().signal, sessionState: session.state })

describe('the preview of a file change, shown with its approval', () => {
  it('shows an edit the call will make, and writes nothing', async () => {
    await session.call('read_file', { path: 'src/app.ts' })
    const shown = await preview('edit_file', { path: 'src/app.ts', old_string: 'const b = 2', new_string: 'const b = 20\nconst bb = 21' })
    expect(shown).toMatchObject({ path: 'src/app.ts', created: false, added: 2, removed: 1, note: null })
    expect(shown!.hunks[0]!.lines).toEqual([
      { kind: 'context', text: 'const a = 1' },
      { kind: 'removed', text: 'const b = 2' },
      { kind: 'added', text: 'const b = 20' },
      { kind: 'added', text: 'const bb = 21' },
      { kind: 'context', text: 'const c = 3' },
    ])
    expect(fx.read('src/app.ts')).toBe('const a = 1\nconst b = 2\nconst c = 3\n')
    // The change previewed is the change made, and the outcome carries it for the chat.
    expect(await session.call('edit_file', { path: 'src/app.ts', old_string: 'const b = 2', new_string: 'const b = 20\nconst bb = 21' })).toMatchObject({ kind: 'ok', change: shown })
    expect(fx.read('src/app.ts')).toBe('const a = 1\nconst b = 20\nconst bb = 21\nconst c = 3\n')
  })

  it('shows a new file whole, and an overwrite as its difference', async () => {
    expect(await preview('write_file', { path: 'src/new.ts', content: 'export {}\n' })).toMatchObject({ path: 'src/new.ts', created: true, added: 1, removed: 0 })
    await session.call('read_file', { path: 'src/app.ts' })
    expect(await preview('write_file', { path: 'src/app.ts', content: 'const a = 1\nconst c = 3\n' })).toMatchObject({ created: false, added: 0, removed: 1 })
  })

  it("says why a call will be refused, in the tool's own words, instead of showing a change", async () => {
    // Not read in this session: the edit would be refused.
    const unread = await preview('edit_file', { path: 'src/app.ts', old_string: 'const a', new_string: 'let a' })
    expect(unread).toMatchObject({ hunks: [], added: 0, note: expect.stringMatching(/^The agent has not read this file in this session.*Allowing it changes nothing/) })
    await session.call('read_file', { path: 'src/app.ts' })
    expect(await preview('edit_file', { path: 'src/app.ts', old_string: 'nowhere', new_string: 'x' })).toMatchObject({
      note: expect.stringMatching(/^The text the agent wants to replace is not in the file\./),
    })
    // Changed on disk since the model read it.
    fx.write('src/app.ts', 'changed\n')
    expect(await preview('edit_file', { path: 'src/app.ts', old_string: 'const a', new_string: 'let a' })).toMatchObject({
      note: expect.stringMatching(/^The file changed on disk after the agent read it/),
    })
    expect(await preview('write_file', { path: 'link-out/secret.txt', content: 'x' })).toMatchObject({ hunks: [], note: expect.stringMatching(/^The path is outside the project/) })
    // A new file under a path whose folder is a file: the preview and the call both refuse it.
    expect(await preview('write_file', { path: 'src/app.ts/new.ts', content: 'x' })).toMatchObject({ created: false, hunks: [], note: expect.stringMatching(/^A folder on the path is a file/) })
    expect(await session.call('write_file', { path: 'src/app.ts/new.ts', content: 'x' })).toMatchObject({ kind: 'error', code: 'not_a_directory', content: expect.stringMatching(/^src\/app\.ts is a file, not a folder/) })
  })

  it('has nothing to show for calls that change no file, or whose input is invalid', async () => {
    expect(await preview('bash', { command: 'ls' })).toBeNull()
    expect(await preview('read_file', { path: 'src/app.ts' })).toBeNull()
    expect(await preview('edit_file', { path: 42 })).toBeNull()
  })
})

describe("a file change's refusal, known before asking (decision 0066)", () => {
  const refusal = (name: string, input: unknown) =>
    session.executor.refusal!({ id: 'toolu_refusal', name, input }, { signal: new AbortController().signal, sessionState: session.state })

  it('is the error the call itself gets, without changing anything, for an edit that cannot be made', async () => {
    // Not read yet.
    const unread = await refusal('edit_file', { path: 'src/app.ts', old_string: 'const b = 2', new_string: 'x' })
    expect(unread).toMatchObject({ kind: 'error', code: 'not_read' })
    await session.call('read_file', { path: 'src/app.ts' })
    // The text to replace is there three times; or not at all.
    const twice = await refusal('edit_file', { path: 'src/app.ts', old_string: 'const', new_string: 'let' })
    expect(twice).toEqual(await session.call('edit_file', { path: 'src/app.ts', old_string: 'const', new_string: 'let' }))
    expect(twice).toMatchObject({ kind: 'error', code: 'ambiguous_match' })
    expect(await refusal('edit_file', { path: 'src/app.ts', old_string: 'const z', new_string: 'x' })).toMatchObject({ kind: 'error', code: 'no_match' })
    expect(fx.read('src/app.ts')).toBe('const a = 1\nconst b = 2\nconst c = 3\n')
  })

  it('is null for a call that would change something, and for a call that changes no file', async () => {
    await session.call('read_file', { path: 'src/app.ts' })
    expect(await refusal('edit_file', { path: 'src/app.ts', old_string: 'const b = 2', new_string: 'const b = 20' })).toBeNull()
    expect(await refusal('write_file', { path: 'src/new.ts', content: 'export {}\n' })).toBeNull()
    expect(await refusal('bash', { command: 'ls' })).toBeNull()
    // Input the tool would reject is left to the call (it says what is wrong with it), not answered here.
    expect(await refusal('edit_file', { path: 'src/app.ts' })).toBeNull()
    expect(fx.read('src/app.ts')).toBe('const a = 1\nconst b = 2\nconst c = 3\n')
  })
})
