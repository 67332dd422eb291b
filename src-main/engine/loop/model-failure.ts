/**
 * What a turn that failed on a model error says: what went wrong, in the service's own words, and what the user can
 * do about it (docs/decisions/0023, 0024).
 */
import { dayWords, lifeOf } from '../../../src-preload/models'
import type { ModelAttempt, ModelClient } from '../ports'

/** The host of the API's address, for a message ("api.anthropic.com"); the address itself when it does not parse. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host
  } catch {
    return baseUrl
  }
}

/**
 * The failure in words: what went wrong, in the service's words, and what to do. `model`: the model the request
 * named. The SDK's own messages end with a full stop ("Connection error."): `message` drops it, one is enough.
 */
export function describeModelError(error: { kind: string; message: string; status: number | null }, endpoint: ModelClient['endpoint'], attempts: ReadonlyArray<ModelAttempt>, model: string, now: number): string {
  const message = error.message.trim().replace(/[.\s]+$/, '')
  const status = error.status ? ` (HTTP ${error.status})` : ''
  const api = endpoint.kind === 'anthropic'
  // With a key, the usual first failures are a network that does not reach the API, a key it refuses and an account
  // without credit: say where the request went, whether it can have cost anything, and the way back to the simulator
  // (docs/decisions/0023).
  // A refused request is not billed; an earlier attempt that the service answered, then broke off, was.
  const billedBefore = attempts.some((a) => a.status !== null && a.status >= 200 && a.status < 300)
  const nothingBilled = billedBefore ? 'the refusal was not billed (an earlier attempt that broke off was)' : 'nothing was billed'
  const leave = api ? ', or remove the API key (Settings → Forget the key, or unset ANTHROPIC_API_KEY) to go back to the offline simulator' : ''
  if (api) {
    // No attempt got a status: no response came back, so the API generated (and billed) nothing.
    if (error.kind === 'connection' && attempts.every((a) => a.status === null)) {
      return `Could not reach the Anthropic API at ${hostOf(endpoint.baseUrl)}: ${message}. No response came back, so nothing was billed. Check the network and retry${leave}.`
    }
    if (error.kind === 'authentication') {
      return `The Anthropic API refused the API key${status}: ${message}. ${nothingBilled[0]!.toUpperCase()}${nothingBilled.slice(1)}. Check the key in Settings${leave}.`
    }
  }
  // Refusals that no change to the conversation mends (docs/decisions/0063): the account, the key, the model, the
  // address. A refused request is not billed.
  switch (error.kind) {
    case 'billing':
      return `The ${api ? 'Anthropic ' : ''}account behind the API key cannot pay for this request${status}: ${message}. Nothing in the conversation is wrong, and ${nothingBilled}: add credit (or raise the spend limit) in the Anthropic Console under Plans & Billing, then retry${leave}.`
    case 'permission':
      return `The API key is not permitted to make this request${status}: ${message}. Nothing in the conversation is wrong, and ${nothingBilled}: check what the key may use (its workspace, the models it may call) in the Anthropic Console, or save another key in Settings, then retry${leave}.`
    case 'model_not_found': {
      // A model past its announced end of life (decision 0065) was retired; any other may have been, or the service
      // (a gateway, say) may not offer it.
      const life = lifeOf(model, now)
      const why = life?.state === 'retired' ? `It was retired on ${dayWords(life.endOfLife)}` : 'It may have been retired'
      return `The model service has no model ${model}${status}: ${message}. ${why}. Nothing in the conversation is wrong: choose another model in the Model menu in the chat's header, then retry (Settings → Model sets the model of new sessions).`
    }
    case 'not_found':
      return `The model service found nothing at the address the request went to${status}: ${message}. Nothing in the conversation is wrong: check the address of the API (${endpoint.baseUrl}${api ? ', which ANTHROPIC_BASE_URL sets' : ''}), then retry.`
  }
  const what: Record<string, string> = {
    rate_limited: 'The model service is rate-limiting requests',
    overloaded: 'The model service is overloaded',
    server_error: 'The model service failed',
    connection: 'The connection to the model service failed',
    incomplete_stream: 'The answer stopped before it was complete',
    authentication: 'The API key was refused',
    invalid_request: 'The model service refused the request',
    request_too_large: 'The request is larger than the model service accepts',
  }
  const head = what[error.kind] ?? 'The model call failed'
  return `${head}${status}: ${message}. ${whatNow(error.kind, message)}.`
}

/**
 * What the user can do about a failure. A refused request (a 400: too long, malformed) is refused again as it is:
 * retrying helps only after a change, and the change within reach is the last message, taken back to edit
 * (decision 0024). A compaction keeps the newest message whole (decision 0018), so it helps a prompt that is too long
 * only when what came before the message is what made it so. A request too large is too many bytes: what makes it
 * so is long tool results (which a compaction cuts) or long pasted text (which a take-back removes).
 */
function whatNow(kind: string, message: string): string {
  if (kind === 'request_too_large') {
    return 'The limit is on its bytes, not its tokens (the API takes 32 MB; a proxy on the way may take less): long tool results (a whole file read) or long pasted text in the conversation make it so. Nothing was lost, but the same request would be refused again as it is: /compact the conversation, which cuts long tool results and summarises older turns, or take back your last message if it brought the large text in'
  }
  if (kind !== 'invalid_request') return 'Nothing was lost; retry when ready'
  if (/prompt is too long/i.test(message)) {
    return "Nothing was lost, but the same request would be refused again: it is longer than the model's context window. Take back your last message to shorten it, or /compact the conversation before it"
  }
  return 'Nothing was lost, but the same request would be refused again as it is: take back your last message to change it'
}
