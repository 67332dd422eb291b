/**
 * Every request of the contract, sent inputs it does not expect: each answer is a typed refusal or a result, never an
 * `internal` error (a handler that threw on something the schema let through), and the app keeps answering.
 *
 * The inputs are made from each request's own schema: a plausible input (the ids of a real project, session and pass
 * where a field names one), then that input with one field at a time replaced by a hostile value. New requests are
 * covered as they are added to the contract.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { requests, type RequestName } from '../../src-preload/contract'
import { createApp, type App } from '../../src-main/node/app'

interface Known {
  readonly projectId: string
  readonly sessionId: string
  readonly passId: string
  readonly root: string
}

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; entries?: Record<string, unknown>; values?: unknown[]; options?: z.ZodType[]; element?: z.ZodType; in?: z.ZodType }
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/** A value the schema takes, or nearly: ids of the real objects by the field's name, the project's folder for a path. */
function plausible(schema: z.ZodType, key: string, known: Known): unknown {
  const def = defOf(schema)
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'readonly':
    case 'nonoptional':
      return plausible(def.innerType!, key, known)
    case 'nullable':
      return plausible(def.innerType!, key, known)
    case 'pipe':
      return plausible(def.in!, key, known)
    case 'string': {
      const k = key.toLowerCase()
      if (k === 'projectid') return known.projectId
      if (k === 'sessionid' || k === 'parentsessionid') return known.sessionId
      if (k === 'passid' || k === 'throughpassid') return known.passId
      if (k.endsWith('id')) return 'x_unknown1'
      if (k.includes('path') || k === 'root' || k === 'dir') return known.root
      if (k.includes('sha256')) return '0'.repeat(64)
      if (k === 'model') return 'claude-sonnet-4-6'
      return 'plain text'
    }
    case 'number':
    case 'int':
      return 1
    case 'boolean':
      return false
    case 'enum':
      return Object.values(def.entries!)[0]
    case 'literal':
      return def.values![0]
    case 'array':
      return [plausible(def.element!, key.replace(/s$/, ''), known)]
    case 'union':
      return plausible(def.options![0]!, key, known)
    case 'object':
      return Object.fromEntries(Object.entries(def.shape!).filter(([, s]) => defOf(s).type !== 'optional').map(([k, s]) => [k, plausible(s, k, known)]))
    case 'record':
      return {}
    default:
      return null
  }
}

/** Values no field expects, as JSON carries them (the WebSocket host parses every frame). */
const HOSTILE: ReadonlyArray<unknown> = [null, -1, 0, 1e308, -0.5, true, '', ' ', 'x'.repeat(200_000), '../../../../etc/passwd', '/', 'a\u0000b', '\u202e\ud800', [], [null], {}, { length: 1e9 }, JSON.parse('{"__proto__":{"polluted":true}}') as unknown]
/** Whole inputs that are not objects at all. */
const NOT_OBJECTS: ReadonlyArray<unknown> = [null, 0, 'x', [], [{}], true]

/** The input, short enough for a failure message (the 5,000-deep one does not stringify). */
function label(input: unknown): string {
  try {
    return String(JSON.stringify(input)).slice(0, 200)
  } catch {
    return '(an input too deep to print)'
  }
}

function deep(levels: number): unknown {
  let value: unknown = 'bottom'
  for (let i = 0; i < levels; i++) value = { a: value }
  return value
}

describe('every request, sent what it does not expect', () => {
  let dir: string
  let app: App
  let known: Known
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-hostile-'))
    const root = join(dir, 'project')
    const { mkdirSync } = await import('node:fs')
    mkdirSync(root)
    writeFileSync(join(root, 'AGENTS.md'), '# Rules\n\nBe brief.\n')
    app = await createApp({ host: 'browser', dataDir: join(dir, 'home'), homeDir: dir })
    const project = await app.dispatch('project.open', { path: root })
    if (!project.ok) throw new Error(JSON.stringify(project))
    const projectId = (project.value as { id: string }).id
    const session = await app.dispatch('session.create', { projectId })
    if (!session.ok) throw new Error(JSON.stringify(session))
    const sessionId = (session.value as { id: string }).id
    const ended = new Promise<void>((resolve) => app.events.subscribe((name) => { if (name === 'turn.ended') resolve() }))
    const started = await app.dispatch('run.start', { sessionId, text: 'list the files' })
    if (!started.ok) throw new Error(JSON.stringify(started))
    await ended
    const passes = await app.dispatch('pass.list', { sessionId })
    const passId = ((passes as { value: Array<{ id: string }> }).value[0] ?? { id: 'x_none' }).id
    known = { projectId, sessionId, passId, root }
  }, 30_000)
  afterAll(async () => {
    await app.dispatch('proxy.stop', {})
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** Sends one input; the answer must be a result or a typed refusal that says something, never `internal`. */
  async function send(name: RequestName, input: unknown): Promise<Awaited<ReturnType<App['dispatch']>>> {
    const answer = await app.dispatch(name, input)
    const what = `${name} ${label(input)}`
    expect(typeof answer.ok, what).toBe('boolean')
    if (!answer.ok) {
      expect(answer.error.code, `${what}: ${answer.error.message}`).not.toBe('internal')
      expect(answer.error.message.length).toBeGreaterThan(0)
      // A refusal echoes enough of the input to fix the call, not a 200 KB payload back.
      expect(answer.error.message.length).toBeLessThan(4_000)
    }
    return answer
  }
  /** Requests whose plausible input the schema refused: their handlers were never reached by the hostile fields. */
  const refusedPlausible: string[] = []

  // The pickers open a native dialog on Electron; here they answer `unsupported`, whatever they are sent.
  const names = Object.keys(requests) as RequestName[]

  it.each(names)('%s', async (name) => {
    const schema = requests[name].input as z.ZodType
    for (const input of NOT_OBJECTS) await send(name, input)
    await send(name, deep(5_000))
    const base = plausible(schema, '', known)
    const answer = await send(name, base)
    if (!answer.ok && answer.error.code === 'invalid_input') refusedPlausible.push(`${name}: ${answer.error.message}`)
    if (base === null || typeof base !== 'object' || Array.isArray(base)) return
    const shape = defOf(schema).shape ?? {}
    for (const key of Object.keys(shape)) {
      for (const value of HOSTILE) await send(name, { ...(base as Record<string, unknown>), [key]: value })
      // A field the request has that the plausible input left out (an optional one), given a plausible value.
      if (!(key in (base as object))) await send(name, { ...(base as Record<string, unknown>), [key]: plausible(shape[key]!, key, known) })
    }
    await send(name, { ...(base as Record<string, unknown>), unexpected: 'field' })
  }, 60_000)

  it('reaches the handlers: the plausible input of nearly every request passes its schema', () => {
    // These two refuse by what the value says, not its shape: a folder is not an export file, and the key is not one.
    const byValue = /^(session\.import|settings\.setApiKey):/
    expect(refusedPlausible.filter((line) => !byValue.test(line))).toEqual([])
  })

  it('leaves no polluted prototype, and the app still answers and holds its session', async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(await app.dispatch('app.info', {})).toMatchObject({ ok: true })
    const listed = await app.dispatch('project.list', {})
    expect(listed.ok).toBe(true)
  })
})
