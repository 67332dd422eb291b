/**
 * What a turn that failed on a model error tells the user to do, by the kind of failure: an account that cannot pay,
 * a key without the permission, a model the service does not have, an address with nothing there and a request too
 * large each say what to change, and none of them blames the last message; only a request refused for itself says
 * to take the message back.
 */
import { describe, expect, it } from 'vitest'
import { describeModelError } from '../../../src-main/engine/loop/model-failure'
import type { ModelAttempt, ModelClient } from '../../../src-main/engine/ports'

const API: ModelClient['endpoint'] = { kind: 'anthropic', baseUrl: 'https://api.anthropic.com' }
const SIMULATOR: ModelClient['endpoint'] = { kind: 'simulator', baseUrl: 'http://127.0.0.1:4010' }
const MODEL = 'claude-sonnet-4-5'

const answered = (status: number): ModelAttempt => ({ startedAt: 0, firstByteAt: 1, endedAt: 2, status, requestId: 'req_1', requestBody: '{}', requestHeaders: {}, responseHeaders: {}, responseBody: '', error: { kind: 'x', message: `HTTP ${status}` } })
/** The day the failures happen: Sonnet 4.5 (MODEL) was retired on 30 Nov 2026, Opus 4.5 retires on 22 Jan 2027 (decision 0065). */
const NOW = Date.parse('2026-12-03T09:00:00Z')
const describe_ = (kind: string, status: number, message: string, endpoint = API) => describeModelError({ kind, status, message }, endpoint, [answered(status)], MODEL, NOW)
const LEAVE = 'or remove the API key (Settings → Forget the key, or unset ANTHROPIC_API_KEY) to go back to the offline simulator'

describe('the advice of a failed turn', () => {
  it('an account without credit: nothing in the conversation is wrong, the account needs credit', () => {
    const text = describe_('billing', 400, 'invalid_request_error: Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.')
    expect(text).toBe(
      `The Anthropic account behind the API key cannot pay for this request (HTTP 400): invalid_request_error: Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits. Nothing in the conversation is wrong, and nothing was billed: add credit (or raise the spend limit) in the Anthropic Console under Plans & Billing, then retry, ${LEAVE}.`,
    )
    expect(describe_('billing', 402, 'billing_error: Your account has an unpaid invoice')).toMatch(/^The Anthropic account behind the API key cannot pay for this request \(HTTP 402\): billing_error: Your account has an unpaid invoice\. Nothing in the conversation is wrong/)
  })

  it('after an earlier attempt that broke off (billed), says only the refusal was not billed', () => {
    const broke: ModelAttempt = { ...answered(200), error: { kind: 'connection', message: 'Connection error.' } }
    const text = describeModelError({ kind: 'billing', status: 400, message: 'invalid_request_error: Your credit balance is too low to access the Anthropic API.' }, API, [broke, answered(400)], MODEL, NOW)
    expect(text).toContain('Nothing in the conversation is wrong, and the refusal was not billed (an earlier attempt that broke off was): add credit')
    expect(describeModelError({ kind: 'authentication', status: 401, message: 'authentication_error: invalid x-api-key' }, API, [broke, answered(401)], MODEL, NOW)).toContain(
      'invalid x-api-key. The refusal was not billed (an earlier attempt that broke off was). Check the key',
    )
  })

  it("a key without the permission: the key's permissions, not the conversation", () => {
    expect(describe_('permission', 403, 'permission_error: Your API key does not have permission to use the specified resource.')).toBe(
      `The API key is not permitted to make this request (HTTP 403): permission_error: Your API key does not have permission to use the specified resource. Nothing in the conversation is wrong, and nothing was billed: check what the key may use (its workspace, the models it may call) in the Anthropic Console, or save another key in Settings, then retry, ${LEAVE}.`,
    )
  })

  it('a model the service does not have: choose another in the Model menu of the chat', () => {
    const text = describe_('model_not_found', 404, 'not_found_error: model: claude-sonnet-4-5')
    expect(text).toBe(
      "The model service has no model claude-sonnet-4-5 (HTTP 404): not_found_error: model: claude-sonnet-4-5. It was retired on 30 Nov 2026. Nothing in the conversation is wrong: choose another model in the Model menu in the chat's header, then retry (Settings → Model sets the model of new sessions).",
    )
    expect(describe_('model_not_found', 404, 'not_found_error: model: claude-sonnet-4-5', SIMULATOR)).toBe(text)
    // A model with no end of life announced, or one before its end of life (a gateway may not offer it), may have
    // been retired: no day is named for a retirement that has not happened.
    for (const model of ['claude-haiku-4-5', 'claude-opus-4-5']) {
      expect(describeModelError({ kind: 'model_not_found', status: 404, message: `not_found_error: model: ${model}` }, API, [answered(404)], model, NOW)).toMatch(
        new RegExp(`: not_found_error: model: ${model}\\. It may have been retired\\. Nothing in the conversation is wrong`),
      )
    }
  })

  it("an address with nothing there: the API's address", () => {
    expect(describe_('not_found', 404, 'not_found_error: The requested resource could not be found.')).toBe(
      'The model service found nothing at the address the request went to (HTTP 404): not_found_error: The requested resource could not be found. Nothing in the conversation is wrong: check the address of the API (https://api.anthropic.com, which ANTHROPIC_BASE_URL sets), then retry.',
    )
  })

  it('a request too large: what is large, and what to do', () => {
    const text = describe_('request_too_large', 413, 'request_too_large: Request exceeds the maximum allowed number of bytes.')
    expect(text).toBe(
      'The request is larger than the model service accepts (HTTP 413): request_too_large: Request exceeds the maximum allowed number of bytes. The limit is on its bytes, not its tokens (the API takes 32 MB; a proxy on the way may take less): long tool results (a whole file read) or long pasted text in the conversation make it so. Nothing was lost, but the same request would be refused again as it is: /compact the conversation, which cuts long tool results and summarises older turns, or take back your last message if it brought the large text in.',
    )
  })

  it('a request refused for itself still says to take the last message back', () => {
    expect(describe_('invalid_request', 400, 'invalid_request_error: messages.0.content.0.text: text content blocks must be non-empty', SIMULATOR)).toBe(
      'The model service refused the request (HTTP 400): invalid_request_error: messages.0.content.0.text: text content blocks must be non-empty. Nothing was lost, but the same request would be refused again as it is: take back your last message to change it.',
    )
  })
})
