/**
 * The renderer's contract client (src-renderer/platform/client) under Node, with every request held until the test
 * answers it: answers can then be released in any order, as a slow host's would arrive, to show that what a view
 * shows is what it last asked for. Events are sent by calling the listener the code registered.
 *
 *   vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)
 *   import { answerHeld, held } from '../../support/held-client'
 *
 * (The module is one instance per test file, shared by the mock and the test.)
 */
export interface HeldRequest {
  readonly name: string
  readonly input: Readonly<Record<string, unknown>>
  answer(value: unknown): void
}

/** The requests not answered yet, oldest first. Emptied by the test (`held.length = 0`) between cases. */
export const held: HeldRequest[] = []

/** The last listener registered for each event name. */
export const heldListeners = new Map<string, (payload: unknown) => void>()

function request(name: string, input: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve) => held.push({ name, input, answer: (value) => resolve({ ok: true, value }) }))
}

export const heldClientModule = {
  client: {
    request,
    on: (name: string, listener: (payload: unknown) => void) => {
      heldListeners.set(name, listener)
      return () => heldListeners.delete(name)
    },
  },
  call: async (name: string, input: Record<string, unknown>) => ((await request(name, input)) as { value: unknown }).value,
}

/**
 * Answers the oldest held request named `name` whose input matches: every field of an object given, or a predicate.
 * Throws, listing what is held, when none does: a test that expects a request the code did not send fails there.
 */
export function answerHeld(name: string, match: Readonly<Record<string, unknown>> | ((input: Readonly<Record<string, unknown>>) => boolean), value: unknown): void {
  const matches = typeof match === 'function' ? match : (input: Readonly<Record<string, unknown>>) => Object.entries(match).every(([k, v]) => input[k] === v)
  const i = held.findIndex((r) => r.name === name && matches(r.input))
  if (i < 0) throw new Error(`no held ${name} matching ${typeof match === 'function' ? 'the predicate' : JSON.stringify(match)}: ${JSON.stringify(held.map((r) => [r.name, r.input]))}`)
  held.splice(i, 1)[0]!.answer(value)
}

/** Lets the answers released so far be taken (their awaits resumed) before the test goes on. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))
