/**
 * The transport-agnostic door every request comes through: check the name, parse the input with the contract's
 * schema, run the handler, wrap the answer in a `Result`. Nothing throws out of `dispatch`.
 */
import { z } from 'zod'
import {
  isRequestName,
  requests,
  type RequestName,
  type RequestOutput,
  type Requests,
  type Result,
} from '../../src-preload/contract'
import type { Logger } from '../engine/ports'
import { RpcError } from './errors'

export type Handler<N extends RequestName> = (
  input: z.output<Requests[N]['input']>,
) => Promise<RequestOutput<N>> | RequestOutput<N>

export type Handlers = { readonly [N in RequestName]: Handler<N> }

export type Dispatch = (name: unknown, input: unknown) => Promise<Result<unknown>>

/** How much of a malformed input's error is echoed back: enough to fix the call, not the whole payload. */
const MAX_ERROR_MESSAGE_CHARS = 500

function describeIssues(error: z.ZodError): string {
  const text = error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(input)'}: ${issue.message}`)
    .join('; ')
  return text.length > MAX_ERROR_MESSAGE_CHARS ? `${text.slice(0, MAX_ERROR_MESSAGE_CHARS)}…` : text
}

export function createDispatcher(handlers: Handlers, log?: Logger): Dispatch {
  return async function dispatch(name, input) {
    if (!isRequestName(name)) {
      const shown = typeof name === 'string' ? JSON.stringify(name.slice(0, 100)) : typeof name
      return { ok: false, error: { code: 'unknown_request', message: `No request named ${shown}` } }
    }
    // An absent input means "no fields": requests without fields may be called with nothing.
    const parsed = requests[name].input.safeParse(input === undefined ? {} : input)
    if (!parsed.success) {
      return { ok: false, error: { code: 'invalid_input', message: `${name}: ${describeIssues(parsed.error)}` } }
    }
    try {
      const handler = handlers[name] as Handler<RequestName>
      const value = await handler(parsed.data as never)
      return { ok: true, value }
    } catch (err) {
      if (err instanceof RpcError) return { ok: false, error: { code: err.code, message: err.message } }
      const message = err instanceof Error ? err.message : String(err)
      log?.error(`request ${name} failed`, { error: err instanceof Error ? err.stack : message })
      return { ok: false, error: { code: 'internal', message: `${name} failed: ${message}` } }
    }
  }
}
