/**
 * `npm run replay`, run in-process on real temporary files: a file it cannot replay is named on one line (no stack),
 * the others are still replayed, and the exit code says which.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runReplayCli } from '../../../src-main/node/replay/cli'
import { FIXTURES } from '../../engine/transcripts/fixtures'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loupe-replay-cli-'))
  dirs.push(d)
  return d
}

async function run(argv: string[]) {
  let out = ''
  let err = ''
  const code = await runReplayCli(argv, { out: (t) => (out += t), err: (t) => (err += t) })
  return { code, out, err }
}

describe('replay on the command line', () => {
  it('names each file it cannot replay on one line, without a stack, and exits 1 without reading a device or a folder', async () => {
    const dir = tempDir()
    const cases: Array<[string, RegExp]> = [
      [join(dir, 'missing.jsonl'), /missing\.jsonl does not exist$/],
      [dir, /is not a regular file \(a folder\)$/],
      [join(dir, 'zero.jsonl'), /zero\.jsonl is not a regular file \(a device\)$/],
      [join(dir, 'loop.jsonl'), /loop\.jsonl is a symbolic link loop$/],
      [join(dir, 'empty.jsonl'), /empty\.jsonl: no request to replay: the file is empty$/],
      [join(dir, 'binary.jsonl'), /binary\.jsonl: no request to replay: not a Claude Code session, none of its 2 lines is a transcript record \(malformed_json ×1, truncated_last_line ×1\)$/],
      [join(dir, 'shapes.jsonl'), /shapes\.jsonl: no request to replay: not a Claude Code session, none of its 3 lines is a transcript record \(not_an_object ×2, invalid_field ×1\)$/],
    ]
    symlinkSync('/dev/zero', join(dir, 'zero.jsonl'))
    symlinkSync(join(dir, 'loop.jsonl'), join(dir, 'loop.jsonl'))
    writeFileSync(join(dir, 'empty.jsonl'), '')
    writeFileSync(join(dir, 'binary.jsonl'), Buffer.from([0x7b, 0x00, 0xff, 0x0a, 0xc3, 0x28, 0x00]))
    writeFileSync(join(dir, 'shapes.jsonl'), '[1]\nnull\n{"type":"assistant","message":{"model":5}}\n')
    for (const [file, message] of cases) {
      const { code, out, err } = await run([file, '--no-naive'])
      expect(code, file).toBe(1)
      expect(out).toBe('')
      expect(err.trimEnd().split('\n'), file).toHaveLength(1)
      expect(err.trimEnd(), file).toMatch(message)
      expect(err).toMatch(/^replay: /)
    }
  })

  it('still replays the good file beside a bad one, says which lines it skipped, and exits 1 for the bad one', async () => {
    const dir = tempDir()
    const good = join(dir, 'short.jsonl')
    // A session still being written: its last line is cut off, and skipped as the import's contract says.
    writeFileSync(good, `${readFileSync(join(FIXTURES, 'spotter', 'short.jsonl'), 'utf8')}{"type":"user","mess`)
    const { code, out, err } = await run([join(dir, 'gone.jsonl'), good, '--no-naive', '--json'])
    expect(code).toBe(1)
    expect(err).toContain(`replay: ${join(dir, 'gone.jsonl')} does not exist\n`)
    expect(err).toContain(`replay: ${good}: skipped 1 of `)
    expect(err).toContain('(truncated_last_line ×1)')
    const reports = JSON.parse(out) as Array<{ session: string; passes: number }>
    expect(reports).toEqual([expect.objectContaining({ session: 'short.js', passes: 1 })])
  }, 120_000)

  it("rewrites a file's count of passes in place on a terminal, and writes it once, when done, anywhere else", async () => {
    const file = join(FIXTURES, 'spotter', 'tool_heavy.jsonl')
    const counts = async (live: boolean) => {
      let err = ''
      const code = await runReplayCli([file, '--no-naive', '--json'], { out: () => {}, err: (t) => (err += t), live })
      expect(code).toBe(0)
      return err.match(/\r?tool_heavy\.jsonl: \d+\/\d+ passes/g)
    }
    expect(await counts(false)).toEqual(['tool_heavy.jsonl: 4/4 passes'])
    expect(await counts(true)).toEqual(['\rtool_heavy.jsonl: 1/4 passes', '\rtool_heavy.jsonl: 2/4 passes', '\rtool_heavy.jsonl: 3/4 passes', '\rtool_heavy.jsonl: 4/4 passes'])
  }, 120_000)

  it('says before sending anything that a session on a model the simulator does not serve cannot be replayed, its name shortened', async () => {
    // A real Claude Code 1.x session, on claude-sonnet-4-20250514, which the simulator's table does not have.
    const real = join(FIXTURES, 'claude-code-viewer', '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl')
    const { code, out, err } = await run([real, '--no-naive'])
    expect({ code, out }).toEqual({ code: 1, out: '' })
    expect(err).toBe(`replay: ${real}: its requests use "claude-sonnet-4-20250514", which the simulator does not serve (its models: src-main/simulator/models.ts), so they cannot be replayed\n`)
    const dir = tempDir()
    const hostile = join(dir, 'model.jsonl')
    const long = 'm'.repeat(10_000)
    writeFileSync(hostile, readFileSync(join(FIXTURES, 'spotter', 'short.jsonl'), 'utf8').replaceAll('"claude-opus-4-6"', JSON.stringify(long)))
    const refused = await run([hostile, '--no-naive'])
    expect(refused.code).toBe(1)
    expect(refused.err).toContain(`its requests use "${'m'.repeat(60)}…", which the simulator does not serve`)
    expect(refused.err.length).toBeLessThan(400)
  })

  it('refuses an unknown option and a missing file list with the usage, exit 2', async () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'x'))
    copyFileSync(join(FIXTURES, 'spotter', 'short.jsonl'), join(dir, 'x', 's.jsonl'))
    const unknown = await run([join(dir, 'x', 's.jsonl'), '--no-naiv'])
    expect(unknown.code).toBe(2)
    expect(unknown.err).toMatch(/^unknown option --no-naiv\nusage: npm run replay/)
    expect(unknown.out).toBe('')
    expect((await run(['--json'])).code).toBe(2)
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    expect(help.out).toMatch(/^usage: /)
  })
})
