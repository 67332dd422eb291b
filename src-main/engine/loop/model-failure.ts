/**
 * What a turn that failed on a model error says: what went wrong, in the service's own words, and what the user can
 * do about it (docs/decisions/0023, 0024).
 */
import type { ModelAttempt, ModelClient } from '../ports'

/** The host of the API's address, for a message ("api.anthropic.com"); the address itself when it does not parse. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host
  } catch {
    return baseUrl
  }
}

// The SDK's own messages end with a full stop ("Connection error."): `message` drops it, one is enough.
export function describeModelError(error: { kind: string; message: string; status: number | null }, endpoint: ModelClient['endpoint'], attempts: ReadonlyArray<ModelAttempt>): string {
  const message = error.message.trim().replace(/[.\s]+$/, '')
  if (endpoint.kind === 'anthropic') {
    // With a key, the usual first failure is a network that does not reach the API, or a key it refuses: say where
    // the request went, whether it can have cost anything, and the way back to the simulator (docs/decisions/0023).
    const leave = 'or remove the API key (Settings → Forget the key, or unset ANTHROPIC_API_KEY) to go back to the offline simulator'
    // No attempt got a status: no response came back, so the API generated (and billed) nothing.
    if (error.kind === 'connection' && attempts.every((a) => a.status === null)) {
      return `Could not reach the Anthropic API at ${hostOf(endpoint.baseUrl)}: ${message}. No response came back, so nothing was billed. Check the network and retry, ${leave}.`
    }
    if (error.kind === 'authentication') {
      return `The Anthropic API refused the API key${error.status ? ` (HTTP ${error.status})` : ''}: ${message}. Nothing was billed. Check the key in Settings, ${leave}.`
    }
  }
  const what: Record<string, string> = {
    rate_limited: 'The model service is rate-limiting requests',
    overloaded: 'The model service is overloaded',
    server_error: 'The model service failed',
    connection: 'The connection to the model service failed',
    incomplete_stream: 'The answer stopped before it was complete',
    authentication: 'The API key was refused',
    invalid_request: 'The model service refused the request',
  }
  const head = what[error.kind] ?? 'The model call failed'
  return `${head}${error.status ? ` (HTTP ${error.status})` : ''}: ${message}. ${whatNow(error.kind, message)}.`
}

/**
 * What the user can do about a failure. A refused request (a 400: too long, malformed) is refused again as it is:
 * retrying helps only after a change, and the change within reach is the last message, taken back to edit
 * (decision 0024). A compaction keeps the newest message whole (decision 0018), so it helps a prompt that is too long
 * only when what came before the message is what made it so.
 */
function whatNow(kind: string, message: string): string {
  if (kind !== 'invalid_request') return 'Nothing was lost; retry when ready'
  if (/prompt is too long/i.test(message)) {
    return "Nothing was lost, but the same request would be refused again: it is longer than the model's context window. Take back your last message to shorten it, or /compact the conversation before it"
  }
  return 'Nothing was lost, but the same request would be refused again as it is: take back your last message to change it'
}
