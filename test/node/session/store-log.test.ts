/**
 * The session log over the store keeps the entries it has read and reads only the rows after them. What it answers
 * must always be what the store holds: entries appended by anyone, in order; an answer a caller holds never changes
 * under it; entries of a rolled-back transaction gone.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EntryBody } from '../../../src-main/engine/conversation/entries'
import { StoreSessionLog } from '../../../src-main/node/session/store-log'
import { openStore, type Store } from '../../../src-main/node/store'

const say = (text: string): EntryBody => ({ kind: 'user_message', content: [{ type: 'text', text }] })
const texts = (entries: ReadonlyArray<{ kind: string; content?: unknown }>) =>
  entries.map((e) => (e.kind === 'user_message' ? (e.content as Array<{ text: string }>)[0]!.text : e.kind))

describe('StoreSessionLog.entries', () => {
  let dir: string
  let store: Store
  let sessionId: string
  let log: StoreSessionLog
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-store-log-'))
    store = openStore(join(dir, 'loupe.db'))
    sessionId = store.sessions.create(store.projects.open(join(dir, 'project'), 1).id, 's', 1).id
    log = new StoreSessionLog(store, sessionId, { now: () => 1000 })
  })
  afterEach(() => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('answers what the store holds, including entries appended past the log', () => {
    expect(log.entries()).toEqual([])
    log.append([say('one'), say('two')])
    expect(texts(log.entries())).toEqual(['one', 'two'])
    // Written straight into the store, as an import's notice or a continued transcript is.
    store.entries.append(sessionId, [say('three')], 2000)
    expect(texts(log.entries())).toEqual(['one', 'two', 'three'])
    expect(log.entries()).toEqual(store.entries.list(sessionId))
  })

  it('reads only what it has not read: an unchanged session is answered with the same array', () => {
    log.append([say('one'), say('two')])
    const first = log.entries()
    expect(log.entries()).toBe(first)
    log.append([say('three')])
    const second = log.entries()
    expect(second).not.toBe(first)
    // What a caller held is unchanged by the append.
    expect(texts(first)).toEqual(['one', 'two'])
    // The first two are the objects read before, not read and parsed again.
    expect(second[0]).toBe(first[0])
    expect(second[1]).toBe(first[1])
  })

  it('drops entries whose transaction was rolled back after they were read, even when others took their place', () => {
    log.append([say('one')])
    const readThenAbort = (text: string) =>
      expect(() =>
        store.transaction(() => {
          const before = texts(log.entries())
          log.append([say(text)])
          expect(texts(log.entries())).toEqual([...before, text])
          throw new Error('abort')
        }),
      ).toThrow('abort')

    readThenAbort('rolled back')
    expect(texts(log.entries())).toEqual(['one'])

    // Another entry at the same position.
    readThenAbort('rolled back too')
    log.append([say('two')])
    expect(texts(log.entries())).toEqual(['one', 'two'])

    // Others past it.
    readThenAbort('rolled back as well')
    log.append([say('three')])
    log.append([say('four')])
    readThenAbort('and this')
    store.entries.append(sessionId, [say('five'), say('six')], 3000)
    expect(texts(log.entries())).toEqual(['one', 'two', 'three', 'four', 'five', 'six'])
    expect(log.entries()).toEqual(store.entries.list(sessionId))
  })

  it('answers nothing once the session is deleted', () => {
    log.append([say('one')])
    expect(log.entries()).toHaveLength(1)
    store.transaction(() => store.sessions.delete(sessionId))
    expect(log.entries()).toEqual([])
  })
})
