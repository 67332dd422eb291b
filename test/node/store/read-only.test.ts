/**
 * A store file this process can read but not write is refused when it is opened, with what to do, instead of
 * opening and failing at the first pass. The opening runs in a child process that file modes bind: when the tests
 * run as root (which writes whatever a file's mode says), the child runs without the capabilities that let root
 * override them (setpriv), and is bound by the owner's bits like any user.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src-main/node/store/database'

const asRoot = process.getuid?.() === 0
// Root without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH: file modes apply to it.
const BOUND = ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--inh-caps=-dac_override,-dac_read_search']
let dir = ''
afterEach(() => {
  chmodSync(dir, 0o755)
  rmSync(dir, { recursive: true, force: true })
})

function openInChild(file: string): string {
  const command = [process.execPath, '--import', 'tsx', join(__dirname, 'read-only-child.ts'), file]
  const [program, ...args] = asRoot ? [...BOUND, ...command] : command
  const result = spawnSync(program!, args, { encoding: 'utf8', cwd: join(__dirname, '..', '..', '..') })
  if (result.status !== 0) throw new Error(`child failed (${result.status}): ${result.stderr}`)
  return result.stdout.trim()
}

/** A store made here, its file and folder then given these modes: what a child bound by them says on opening it. */
function openWithModes(fileMode: number, dirMode: number): { file: string; said: string } {
  dir = mkdtempSync(join(tmpdir(), 'loupe-readonly-'))
  const file = join(dir, 'loupe.db')
  openDatabase(file).close()
  chmodSync(file, fileMode)
  chmodSync(dir, dirMode)
  return { file, said: openInChild(file) }
}

describe.skipIf(process.platform === 'win32')('a read-only store', () => {
  const refused = (file: string) => `refused: ${file} is read-only: Loupe writes every pass to it. Make it and its folder writable, or choose another data folder (LOUPE_HOME).`

  it('is refused at open when the file is read-only, though reading it works', () => {
    // The folder stays writable: SQLite makes its journal files there, and every read succeeds.
    const { file, said } = openWithModes(0o444, 0o755)
    expect(said).toBe(refused(file))
  })

  it('is refused at open when its folder is read-only (SQLite cannot make its journal there)', () => {
    const { file, said } = openWithModes(0o644, 0o555)
    expect(said).toBe(refused(file))
  })

  it('opens when it can be written', () => {
    expect(openWithModes(0o644, 0o755).said).toBe('opened')
  })
})
