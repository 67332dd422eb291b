/**
 * Taking a message back (decision 0024), through the contract of a real app answered by the simulator: the
 * message and its answers leave what the next pass sends, the text comes back, the notes it carried go with the next
 * message, the miss it causes is named, and a failure before it has nothing left to retry.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { call, failNextMessages, sendAndWait, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'
import { FIXTURES } from '../transcripts/store-helpers'

let running: SimulatorApp | null = null
afterEach(async () => {
  await running?.close()
  running = null
})

type Entry = { id: string; kind: string; source?: string; edits?: Array<{ entryId: string }>; notes?: Array<{ kind: string; path?: string }>; content?: Array<{ text?: string }> }

async function setup(options: { faults?: ReturnType<typeof failNextMessages> } = {}) {
  running = await simulatorApp({ seed: 'take-back', model: 'claude-sonnet-4-6', ...(options.faults ? { faults: options.faults } : {}) })
  const { app } = running
  const root = join(running.dir, 'demo')
  mkdirSync(root)
  writeFileSync(join(root, 'README.md'), '# Demo\n\nA small project.\n')
  writeFileSync(join(root, 'CLAUDE.md'), '# Demo\n\nAnswer briefly.\n')
  const project = await call<{ id: string }>(app, 'project.open', { path: root })
  const { id: sessionId } = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
  const send = (text: string): Promise<string> => sendAndWait(app, sessionId, text)
  const entries = async () => (await call<{ entries: Entry[] }>(app, 'session.get', { sessionId })).entries
  const lastMessage = async () => (await entries()).findLast((e) => e.kind === 'user_message')!
  /** The messages of a pass's request as the service received them. */
  const sent = (passId: string) => JSON.parse(app.services.store.passes.requestBody(passId)) as { messages: Array<{ role: string; content: unknown }> }
  const mainPasses = async () => (await call<Array<{ id: string; kind: string }>>(app, 'pass.list', { sessionId })).filter((p) => p.kind === 'main')
  return { app, root, sessionId, send, entries, lastMessage, sent, mainPasses }
}

describe('taking a message back', () => {
  it('gives its text back, drops it and its answers from the next pass, and names the miss it causes', async () => {
    const s = await setup()
    expect(await s.send('read README.md')).toBe('end_turn')
    expect(await s.send('list the root')).toBe('end_turn')
    const taken = await s.lastMessage()
    const before = (await s.entries()).length

    const result = await call<{ text: string; dropped: number }>(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: taken.id })
    expect(result.text).toBe('list the root')
    const after = await s.entries()
    // Nothing is deleted: one entry is added, the take-back, which drops the message and every answer to it.
    expect(after).toHaveLength(before + 1)
    const edit = after.at(-1)!
    expect(edit).toMatchObject({ kind: 'context_edit', source: 'take-back' })
    const droppedKinds = after.filter((e) => edit.edits!.some((d) => d.entryId === e.id)).map((e) => e.kind)
    expect(droppedKinds[0]).toBe('user_message')
    expect(droppedKinds).toContain('assistant_message')
    expect(result.dropped).toBe(droppedKinds.length)

    expect(await s.send('what is in this project')).toBe('end_turn')
    const passes = await s.mainPasses()
    const firstAfter = passes.find((p) => !JSON.stringify(s.sent(p.id).messages).includes('list the root') && JSON.stringify(s.sent(p.id).messages).includes('what is in this project'))!
    expect(firstAfter).toBeDefined()
    const messages = s.sent(firstAfter.id).messages
    expect(JSON.stringify(messages)).toContain('read README.md')
    expect(messages.at(-1)!.role).toBe('user')

    // The answer the taken-back message followed was never the tail of a pass: it is written again, and the
    // attribution says why, in the cause a user reads.
    const summary = await call<{ passes: Array<{ passId: string; cause: string; summary: string }> }>(s.app, 'session.cacheSummary', { sessionId: s.sessionId })
    const attributed = summary.passes.find((p) => p.passId === firstAfter.id)!
    expect(attributed.summary).toMatch(/^partial hit up to messages\[2\]\.content\[0\] · no breakpoint ended at messages\[3\]\.content\[1\], where the conversation now goes on: the previous pass's breakpoint sat on a message since taken back by the user at \d\d:\d\d$/)
    expect(attributed.cause).toBe('changed_block')
    expect(summary.passes.filter((p) => p.cause === 'unexplained')).toEqual([])
  })

  it('takes back one message further at a time, and refuses what cannot be taken back', async () => {
    const s = await setup()
    await s.send('read README.md')
    await s.send('list the root')
    const all = await s.entries()
    const first = all.find((e) => e.kind === 'user_message')!
    const second = all.findLast((e) => e.kind === 'user_message')!
    const answer = all.findLast((e) => e.kind === 'assistant_message')!

    await expect(call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: answer.id })).rejects.toThrow(/invalid_input Only a message you sent/)
    await expect(call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: 'nonesuch' })).rejects.toThrow(/not_found/)
    await expect(call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: 'x'.repeat(500) })).rejects.toThrow(/invalid_input/)

    await call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: second.id })
    await expect(call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: second.id })).rejects.toThrow(/already taken back/)
    // With the second gone, the first is the last message the model sees.
    expect((await call<{ text: string }>(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: first.id })).text).toBe('read README.md')

    // While a turn runs the conversation is not the user's to change.
    const ended = turnEnded(s.app, s.sessionId)
    await call(s.app, 'run.start', { sessionId: s.sessionId, text: 'read README.md' })
    const runningMessage = await s.lastMessage()
    await expect(call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: runningMessage.id })).rejects.toThrow(/busy/)
    await ended
    // (A message a compaction has folded in: test/engine/conversation/take-back.test.ts.)
  })

  it('takes an earlier message back with the turns after it: the next pass goes on from before it, its miss named', async () => {
    const s = await setup()
    await s.send('read README.md')
    await s.send('list the root')
    await s.send('read CLAUDE.md')
    const messages = (await s.entries()).filter((e) => e.kind === 'user_message')
    const result = await call<{ text: string; dropped: number; messages: number }>(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: messages[1]!.id })
    expect(result).toMatchObject({ text: 'list the root', messages: 2 })
    // Both later messages left what the model sees, in one edit; the first stays.
    const edit = (await s.entries()).at(-1)!
    expect(edit.edits!.map((d) => d.entryId)).toEqual(expect.arrayContaining([messages[1]!.id, messages[2]!.id]))
    expect(edit.edits!.map((d) => d.entryId)).not.toContain(messages[0]!.id)
    // Nothing is left to take back twice, and the first message is still the user's to take.
    await expect(call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: messages[2]!.id })).rejects.toThrow(/already taken back/)

    expect(await s.send('what is in this project')).toBe('end_turn')
    const passes = await s.mainPasses()
    const firstAfter = passes.find((p) => JSON.stringify(s.sent(p.id).messages).includes('what is in this project'))!
    const sent = JSON.stringify(s.sent(firstAfter.id).messages)
    expect(sent).toContain('read README.md')
    expect(sent).not.toContain('list the root')
    expect(sent).not.toContain('read CLAUDE.md')
    // The cache still holds the first turn (written by the pass that answered it): the pass reads up to there, and the
    // attribution names the take-back rather than calling the miss unexplained.
    const summary = await call<{ passes: Array<{ passId: string; cause: string; summary: string; read: number }> }>(s.app, 'session.cacheSummary', { sessionId: s.sessionId })
    const attributed = summary.passes.find((p) => p.passId === firstAfter.id)!
    expect(attributed.summary).toMatch(/^partial hit up to messages\[\d+\]\.content\[\d+\] · .*taken back by the user at \d\d:\d\d$/)
    expect(summary.passes.filter((p) => p.cause === 'unexplained')).toEqual([])
  })

  it("takes the name the session's first message gave it back with it, so the next message names the session", async () => {
    const s = await setup()
    await s.send('read README.md')
    const title = async () => (await call<{ session: { title: string } }>(s.app, 'session.get', { sessionId: s.sessionId })).session.title
    expect(await title()).toBe('read README.md')
    await call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: (await s.lastMessage()).id })
    expect(await title()).toMatch(/^Session \d{4}-\d\d-\d\d \d\d:\d\d$/)
    await s.send('list the root')
    expect(await title()).toBe('list the root')
    // A name the user chose stays, whatever is taken back.
    await call(s.app, 'session.rename', { sessionId: s.sessionId, title: 'Mine' })
    await call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: (await s.lastMessage()).id })
    expect(await title()).toBe('Mine')
  })

  it('carries the notes the message held to the next one', async () => {
    const s = await setup()
    await s.send('read README.md')
    writeFileSync(join(s.root, 'CLAUDE.md'), '# Demo\n\nAnswer briefly, in French.\n')
    await s.send('list the root')
    const noted = await s.lastMessage()
    expect(noted.notes?.map((n) => [n.kind, n.path])).toEqual([['file_changed', 'CLAUDE.md']])
    await call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: noted.id })
    await s.send('list the root again')
    // The model never saw the note on the message taken back: the next message says it instead, once.
    expect((await s.lastMessage()).notes?.map((n) => [n.kind, n.path])).toEqual([['file_changed', 'CLAUDE.md']])
    await s.send('thanks')
    expect((await s.lastMessage()).notes).toBeUndefined()
  })

  it('shows a file read only in the turn taken back in full when it is read again, not as "unchanged since your last read"', async () => {
    const s = await setup()
    await s.send('list the root')
    await s.send('read README.md')
    await call(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: (await s.lastMessage()).id })
    await s.send('read README.md')
    // The read the tools remember went with the message: the model sees the file's text again, not a pointer to it.
    const last = (await s.mainPasses()).at(-1)!
    const results = JSON.stringify(s.sent(last.id).messages.filter((m) => m.role === 'user').at(-1)!.content)
    expect(results).toContain('A small project.')
    expect(results).not.toContain('File unchanged since your last read')
  })

  it('leaves nothing to retry once the failed message is taken back', async () => {
    const faults = failNextMessages()
    const s = await setup({ faults })
    await s.send('read README.md')
    faults.failNext()
    expect(await s.send('list the root')).toBe('error')
    const failed = await s.lastMessage()
    const { text } = await call<{ text: string }>(s.app, 'run.takeBack', { sessionId: s.sessionId, entryId: failed.id })
    expect(text).toBe('list the root')
    await expect(call(s.app, 'run.retry', { sessionId: s.sessionId })).rejects.toThrow(/unsupported Nothing to retry: the message was taken back/)
    // Sent again, as changed, it is answered from a conversation that is valid for the API.
    expect(await s.send('list the root, please')).toBe('end_turn')
  })

  it("never takes back what a session continued from Claude Code carried over: only the messages sent in Loupe", async () => {
    running = await simulatorApp({ seed: 'take-back-continued', model: 'claude-sonnet-4-6' })
    const { app, dir } = running
    // A Claude Code session whose last user message is Claude Code's own marker, "[Request interrupted by user]".
    const projects = join(dir, 'claude', 'projects')
    mkdirSync(join(projects, '-x'), { recursive: true })
    copyFileSync(join(FIXTURES, 'spotter', 'tool_heavy.jsonl'), join(projects, '-x', 'tool_heavy.jsonl'))
    const listing = await call<{ projects: Array<{ sessions: Array<{ path: string }> }> }>(app, 'transcripts.list', { folder: projects })
    const imported = await call<{ sessionId: string }>(app, 'transcripts.import', { path: listing.projects[0]!.sessions[0]!.path, folder: projects })
    mkdirSync(join(dir, 'here'))
    const here = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'here') })
    const { id: sessionId } = await call<{ id: string }>(app, 'transcripts.continue', { sessionId: imported.sessionId, projectId: here.id })
    const entries = async () => (await call<{ entries: Entry[] }>(app, 'session.get', { sessionId })).entries
    const lastMessage = async () => (await entries()).findLast((e) => e.kind === 'user_message')!

    const marker = await lastMessage()
    expect(marker.content?.map((b) => b.text).join('')).toBe('[Request interrupted by user]')
    const refused = /unsupported This message came with the Claude Code conversation this session continues: only a message sent in Loupe can be taken back/
    await expect(call(app, 'run.takeBack', { sessionId, entryId: marker.id })).rejects.toThrow(refused)

    // A message sent in Loupe is taken back as in any session; the carried-over one before it still is not.
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'list src' })
    await ended
    const mine = await lastMessage()
    expect((await call<{ text: string }>(app, 'run.takeBack', { sessionId, entryId: mine.id })).text).toBe('list src')
    await expect(call(app, 'run.takeBack', { sessionId, entryId: marker.id })).rejects.toThrow(refused)
    // Refused, nothing was written: the only take-back is the one of the message sent in Loupe.
    expect((await entries()).filter((e) => e.kind === 'context_edit' && e.source === 'take-back')).toHaveLength(1)
  })
})
