/** One app per data folder (store/lock.ts), and a store that will not open says which file and what to do. */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '../../../src-main/node/app'
import { openDatabase } from '../../../src-main/node/store/database'
import { DataDirInUseError, LOCK_FILE, lockDataDir } from '../../../src-main/node/store/lock'

let dir = ''
let other: ChildProcess | null = null
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-lock-'))
})
afterEach(() => {
  other?.kill()
  other = null
  rmSync(dir, { recursive: true, force: true })
})

/** A live process that is not this one, to own a lock. */
function liveProcess(): number {
  other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  return other.pid!
}

describe('the data folder lock', () => {
  it('is taken, refused to a second owner while the first lives, and released', () => {
    const lock = lockDataDir(dir)
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid))
    lock.release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)

    const owner = liveProcess()
    writeFileSync(join(dir, LOCK_FILE), `${owner}\n`)
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError)
    expect(() => lockDataDir(dir)).toThrow(`process ${owner}`)
    // Releasing a lock that is not ours leaves it.
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(owner))
  })

  it('takes over a lock left by a process that is gone', async () => {
    const owner = liveProcess()
    const exited = new Promise((resolve) => other!.once('exit', resolve))
    other!.kill()
    await exited
    writeFileSync(join(dir, LOCK_FILE), `${owner}\n`)
    const lock = lockDataDir(dir)
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid))
    lock.release()
  })

  it('refuses to start an app on a folder another live app holds, and starts once it is free', async () => {
    const owner = liveProcess()
    writeFileSync(join(dir, LOCK_FILE), `${owner}\n`)
    const options = { host: 'browser' as const, dataDir: dir, loupeHome: dir, homeDir: dir, env: {} }
    await expect(createApp(options)).rejects.toThrow(/in use by another Loupe/)
    rmSync(join(dir, LOCK_FILE))
    const app = await createApp(options)
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true)
    await app.close()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
  })
})

describe('a store that will not open', () => {
  it('names the file and what to do', () => {
    const file = join(dir, 'loupe.db')
    writeFileSync(file, Buffer.alloc(8192, 0x5a))
    expect(() => openDatabase(file)).toThrow(`${file} is not a Loupe store`)
    expect(() => openDatabase(file)).toThrow('Move')
  })
})
