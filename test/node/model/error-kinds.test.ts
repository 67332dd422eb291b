/**
 * What kind of failure a refused request is, told by the error's type and status (and, for the 400 the API sends
 * when an account has no credit, its message), through the SDK as the app uses it: an account that cannot pay, a
 * key without the permission, a model the service does not have, a request too large, each apart from a request
 * that is itself at fault. The kind is what the turn's advice is chosen by (engine/loop/model-failure.ts).
 */
import { describe, expect, it } from 'vitest'
import { describeModelError } from '../../../src-main/engine/loop/model-failure'
import type { ModelOutcome } from '../../../src-main/engine/ports'
import type { WireRequest } from '../../../src-main/engine/model/wire'
import { createModelClient } from '../../../src-main/node/model/client'
import { errorKind } from '../../../src-main/node/model/capture'
import { startSimulator } from '../../../src-main/simulator/index'

const KEY = 'sk-fake-key-for-error-kinds-0000000000'
const REQUEST: WireRequest = { model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] }

const apiError = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' })
const CREDIT = 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.'
const NGINX_413 = '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'

/** One send through the SDK to a fetch that answers with this status and body, without retries. */
async function refused(status: number, body: string, contentType = 'application/json'): Promise<Extract<ModelOutcome, { ok: false }>> {
  const fetch = async () => new Response(body, { status, headers: { 'content-type': contentType, 'request-id': 'req_1' } })
  const client = createModelClient({ baseUrl: 'https://api.example.test', apiKey: KEY, kind: 'anthropic', maxRetries: 0, fetch })
  const outcome = await client.send(REQUEST, {})
  if (outcome.ok) throw new Error('expected a failure')
  return outcome
}

describe('the kind of a refused request', () => {
  it.each([
    ['a 400 for an account without credit', 400, apiError('invalid_request_error', CREDIT), 'billing'],
    ['a 400 for a spend limit reached', 400, apiError('invalid_request_error', 'You have reached your specified API usage limits. You will regain access on 2026-12-01 at 00:00 UTC.'), 'billing'],
    ['a 402 billing_error', 402, apiError('billing_error', 'Your account has an unpaid invoice.'), 'billing'],
    ['a 401 authentication_error', 401, apiError('authentication_error', 'invalid x-api-key'), 'authentication'],
    ['a 403 permission_error', 403, apiError('permission_error', 'Your API key does not have permission to use the specified resource.'), 'permission'],
    ['a 404 for a model the service does not have', 404, apiError('not_found_error', 'model: claude-sonnet-4-5'), 'model_not_found'],
    ['a 404 for an address with nothing there', 404, apiError('not_found_error', 'The requested resource could not be found.'), 'not_found'],
    ['a 413 request_too_large', 413, apiError('request_too_large', 'Request exceeds the maximum allowed number of bytes.'), 'request_too_large'],
    ['a 400 for a prompt too long', 400, apiError('invalid_request_error', 'prompt is too long: 302645 tokens > 200000 maximum'), 'invalid_request'],
    ['a 400 for a malformed request', 400, apiError('invalid_request_error', 'messages.0.content.0.text: text content blocks must be non-empty'), 'invalid_request'],
  ] as const)('%s', async (_name, status, body, kind) => {
    const outcome = await refused(status, body)
    expect(outcome.error).toMatchObject({ kind, status })
    // The inspector's attempt says the same kind.
    expect(outcome.attempts.at(-1)?.error?.kind).toBe(kind)
  })

  it('the advice for an account, a key, a model or a size never says to take the last message back', async () => {
    for (const [status, body] of [
      [400, apiError('invalid_request_error', CREDIT)],
      [402, apiError('billing_error', 'Your account has an unpaid invoice.')],
      [403, apiError('permission_error', 'Your API key does not have permission to use the specified resource.')],
      [404, apiError('not_found_error', 'model: claude-sonnet-4-5')],
      [413, NGINX_413],
    ] as const) {
      const outcome = await refused(status, body, body.startsWith('<') ? 'text/html' : 'application/json')
      const advice = describeModelError(outcome.error, { kind: 'anthropic', baseUrl: 'https://api.anthropic.com' }, outcome.attempts, REQUEST.model, Date.now())
      expect(advice).toMatch(status === 413 ? /^The request is larger than the model service accepts/ : /Nothing in the conversation is wrong/)
      if (status !== 413) expect(advice).not.toMatch(/take back/i)
    }
  })

  it('a 413 page from a proxy is too large, and its message is the page\'s title, not its HTML', async () => {
    const outcome = await refused(413, NGINX_413, 'text/html')
    expect(outcome.error.kind).toBe('request_too_large')
    expect(outcome.error.message).not.toContain('<')
    expect(outcome.error.message).toContain('413 Request Entity Too Large')
  })

  it('is told by the type when there is no status (an error event inside a stream)', () => {
    expect(errorKind(null, { type: 'overloaded_error', message: 'Overloaded' })).toBe('overloaded')
    expect(errorKind(null, { type: 'billing_error', message: 'x' })).toBe('billing')
    expect(errorKind(null, { type: 'rate_limit_error', message: 'x' })).toBe('rate_limited')
    expect(errorKind(null, { type: 'api_error', message: 'x' })).toBe('server_error')
    expect(errorKind(null, null)).toBe('unknown')
    // 408 and 409 are the SDK's to retry: not a request at fault.
    expect(errorKind(408, null)).toBe('unknown')
    expect(errorKind(409, null)).toBe('unknown')
  })

  it("an error event inside a stream says the service's words, not the event's JSON", async () => {
    const sim = await startSimulator({ pace: 'instant' })
    try {
      const client = createModelClient({ baseUrl: sim.baseUrl, apiKey: KEY, kind: 'anthropic', maxRetries: 0, defaultHeaders: { 'x-sim-fault': 'stream_error; after_events=2; id=error-kinds' } })
      const outcome = await client.send(REQUEST, {})
      expect(outcome.ok).toBe(false)
      if (outcome.ok) return
      expect(outcome.error).toEqual({ kind: 'overloaded', message: 'overloaded_error: Overloaded', status: null })
      expect(outcome.attempts.at(-1)?.error).toEqual({ kind: 'overloaded', message: 'overloaded_error: Overloaded' })
      expect(describeModelError(outcome.error, client.endpoint, outcome.attempts, REQUEST.model, Date.now())).toBe('The model service is overloaded: overloaded_error: Overloaded. Nothing was lost; retry when ready.')
    } finally {
      await sim.close()
    }
  })

  it('the simulator answers a model it does not have as the service does: 404 not_found_error "model: <id>"', async () => {
    const sim = await startSimulator({ pace: 'instant' })
    try {
      const client = createModelClient({ baseUrl: sim.baseUrl, apiKey: KEY, kind: 'simulator', maxRetries: 0 })
      const outcome = await client.send({ ...REQUEST, model: 'claude-sonnet-3-0' }, {})
      expect(outcome.ok).toBe(false)
      if (!outcome.ok) expect(outcome.error).toEqual({ kind: 'model_not_found', message: 'not_found_error: model: claude-sonnet-3-0', status: 404 })
    } finally {
      await sim.close()
    }
  })
})
