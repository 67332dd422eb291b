import { describe, expect, it } from 'vitest'
import { attributionCause, KEEP_WARM_CAUSE, missLine, NOT_ATTRIBUTED, passOutcome } from '../../../src-renderer/features/inspector/model/outcome'
import { curlCommand, requestFileName } from '../../../src-renderer/features/inspector/model/export'
import { execFileSync } from 'node:child_process'

const usage = (read: number, write: number, input = 3) => ({ input_tokens: input, output_tokens: 10, cache_read_input_tokens: read, cache_creation_input_tokens: write })
const pass = (u: ReturnType<typeof usage> | null, attribution: unknown = null, status: 'done' | 'failed' | 'cancelled' = 'done') => ({ status, usage: u, attribution })

describe('passOutcome', () => {
  it('is a hit when the pass read all the previous pass left cached', () => {
    expect(passOutcome(pass(usage(2500, 40)), pass(usage(2000, 500)))).toMatchObject({ kind: 'hit' })
  })
  it('is partial when it read less, a miss when it read nothing, and not yet attributed without an attribution', () => {
    expect(passOutcome(pass(usage(1000, 1500)), pass(usage(2000, 500)))).toEqual({ kind: 'partial', label: 'partial', cause: NOT_ATTRIBUTED })
    expect(passOutcome(pass(usage(0, 2500)), pass(usage(2000, 500)))).toEqual({ kind: 'miss', label: 'miss', cause: NOT_ATTRIBUTED })
  })
  it('a hit that wrote more than it read says "written": it read all it could, but was mostly written', () => {
    expect(passOutcome(pass(usage(2503, 49_800), { outcome: 'full', cause: { kind: 'none', label: 'only the new tail paid' } }), null)).toEqual({ kind: 'first', label: 'written', cause: 'only the new tail paid' })
    expect(passOutcome(pass(usage(17_800, 122_000)), pass(usage(10_000, 2_000))).label).toBe('written')
  })
  it('a first pass that wrote is "written", one that neither read nor wrote is "not cached"', () => {
    expect(passOutcome(pass(usage(0, 2500)), null).kind).toBe('first')
    expect(passOutcome(pass(usage(0, 0, 900)), null).kind).toBe('not_cached')
  })
  it('a miss that lost nothing (read all it could) is its own kind, grey; a miss that lost tokens stays a miss', () => {
    const below = { outcome: 'miss', cause: { kind: 'below_minimum', label: 'prefix below the minimum' }, miss: { tokens: 0, usd: 0 } }
    expect(passOutcome(pass(usage(0, 6000)), pass(usage(2000, 500)))).toMatchObject({ kind: 'miss' })
    expect(passOutcome(pass(usage(0, 0, 2600), below), pass(usage(0, 0, 2500)))).toEqual({ kind: 'unavoidable', label: 'miss', cause: 'prefix below the minimum' })
    const switched = { outcome: 'miss', cause: { kind: 'model_changed', label: 'model changed' }, miss: { tokens: 6005, usd: 0.0345 } }
    expect(passOutcome(pass(usage(0, 6000), switched), pass(usage(5000, 900)))).toEqual({ kind: 'miss', label: 'miss', cause: 'model changed' })
  })
  it('failed and cancelled passes say so', () => {
    expect(passOutcome(pass(null, null, 'failed'), null).kind).toBe('failed')
    expect(passOutcome(pass(null, null, 'cancelled'), null).kind).toBe('cancelled')
  })
  it('a failed pass that got no response says why, from its own error, in place of "refused or could not be reached"', () => {
    const noResponse = { outcome: 'miss', cause: { kind: 'no_response', label: 'no response: the model service refused the request or could not be reached, so it read and wrote nothing' } }
    const refused = { ...pass(null, noResponse, 'failed'), error: { kind: 'invalid_request_error', message: 'max_tokens: Field required' } }
    expect(passOutcome(refused, null)).toEqual({ kind: 'failed', label: 'failed', cause: 'no response (invalid_request_error: max_tokens: Field required), so it read and wrote nothing' })
    // A long message is cut (the response view has it whole), its line breaks made spaces.
    const long = passOutcome({ ...refused, error: { kind: 'api_error', message: `line one\n${'x'.repeat(500)}` } }, null).cause
    expect(long).toMatch(/^no response \(api_error: line one x+…\), so it read and wrote nothing$/)
    expect(long.length).toBeLessThan(260)
    // Without an error recorded, or with another cause, the attribution's words stand.
    expect(passOutcome(pass(null, noResponse, 'failed'), null).cause).toBe(noResponse.cause.label)
    const other = { outcome: 'miss', cause: { kind: 'ttl_expired', label: 'TTL expired' } }
    expect(passOutcome({ ...pass(null, other, 'failed'), error: { kind: 'overloaded_error', message: 'Overloaded' } }, null).cause).toBe('TTL expired')
  })
  it('a stopped pass says "stopped", as the chat does, and its title says who stopped it and what the cache did', () => {
    const cold = { outcome: 'miss', cause: { kind: 'cold', label: 'first pass of the session: nothing cached yet' } }
    expect(passOutcome(pass(usage(0, 2500), cold, 'cancelled'), null)).toEqual({
      kind: 'cancelled',
      label: 'stopped',
      cause: 'cancelled by the user before the answer ended · first pass of the session: nothing cached yet',
    })
    expect(passOutcome(pass(null, null, 'cancelled'), null).cause).toBe('cancelled by the user before the answer ended')
    // Stopped before the answer began: the attribution's cause says so, once.
    const before = { outcome: 'miss', cause: { kind: 'no_response', label: 'no response: stopped by the user before the answer began, so it read and wrote nothing' } }
    expect(passOutcome(pass(null, before, 'cancelled'), null)).toEqual({ kind: 'cancelled', label: 'stopped', cause: 'no response: stopped by the user before the answer began, so it read and wrote nothing' })
  })
  it('takes the outcome and cause from the attribution when there is one', () => {
    const attribution = { version: 1, outcome: 'partial', cause: { kind: 'ttl_expired', label: 'TTL expired: idle 6 m 10 s > 5 m' }, summary: 'partial · TTL expired' }
    expect(passOutcome(pass(usage(0, 2500), attribution), pass(usage(2000, 500)))).toEqual({ kind: 'partial', label: 'partial', cause: 'TTL expired: idle 6 m 10 s > 5 m' })
    expect(passOutcome(pass(usage(2500, 40), { outcome: 'full', cause: { kind: 'none', label: 'only the new tail paid' } }), null).kind).toBe('hit')
    expect(passOutcome(pass(usage(0, 2500), { outcome: 'miss', cause: { kind: 'cold', label: 'cold start: nothing cached yet' } }), null)).toEqual({ kind: 'first', label: 'cold', cause: 'cold start: nothing cached yet' })
  })

  it("calls an imported transcript's first request first, not a hit, though it read what was cached before the transcript begins", () => {
    const first = { source: 'transcript', outcome: null, cause: { kind: 'first', label: 'first request of the thread' }, summary: 'First request: read 11,604 tokens cached before the transcript begins' }
    expect(passOutcome(pass(usage(11_604, 2_100), first), null)).toEqual({ kind: 'first', label: 'first', cause: 'First request: read 11,604 tokens cached before the transcript begins' })
  })
})

describe('attributionCause', () => {
  it('reads the shapes an attribution may take, and null when there is none', () => {
    expect(attributionCause(null)).toBeNull()
    expect(attributionCause('model changed')).toBe('model changed')
    expect(attributionCause({ summary: 'miss · system[1] · CLAUDE.md edited' })).toBe('miss · system[1] · CLAUDE.md edited')
    expect(attributionCause({ cause: { kind: 'changed_block', label: 'tools · the tool list changed' }, summary: 'x' })).toBe('tools · the tool list changed')
    expect(attributionCause({ cause: 'idle_gap' })).toBe('idle gap')
    expect(attributionCause({ nothing: 1 })).toBeNull()
  })
})

describe('curlCommand', () => {
  const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: "it's $HOME and `x` \\ \"q\"\nLOUPE" }] })

  it('never carries a key, only the variable', () => {
    const cmd = curlCommand(body)
    expect(cmd).toContain('x-api-key: $ANTHROPIC_API_KEY')
    expect(cmd).toContain('anthropic-version: 2026-10-21')
    expect(cmd).not.toContain('anthropic-beta')
    expect(curlCommand(JSON.stringify({ diagnostics: { previous_message_id: null } }))).toContain('anthropic-beta: cache-diagnosis-2026-04-07')
  })

  it('hands curl exactly the captured bytes (checked by a real shell)', () => {
    const cmd = curlCommand(body)
    // Replace curl with a function that prints its --data-binary argument.
    const script = `curl() { while [ $# -gt 0 ]; do if [ "$1" = --data-binary ]; then printf '%s' "$2"; fi; shift; done; }\n${cmd}`
    expect(execFileSync('sh', ['-c', script], { encoding: 'utf8' })).toBe(body)
  })

  it('names a saved file after the session and pass', () => {
    expect(requestFileName('ses_1/../x', 4)).toBe('loupe-ses_1x-pass-4.json')
  })
})

describe('missLine', () => {
  it("says what a pass's miss cost, in the Cache view's words for the same figure", () => {
    expect(missLine({ version: 1, outcome: 'partial', miss: { tokens: 1234, usd: 0.0042573, actualUsd: 0.0064, bestUsd: 0.0021 } })).toBe('lost $0.0043: 1,234 tokens paid for that could have been read')
  })
  it('says a model switch\'s loss is measured on the new model, apart from the prices the switch\'s question also counted', () => {
    const switched = { version: 1, outcome: 'miss', cause: { kind: 'model_changed', from: 'claude-sonnet-4-6', to: 'claude-opus-4-8', label: 'x' }, miss: { tokens: 2404, usd: 0.013823 } }
    expect(missLine(switched)).toBe("lost $0.0138: 2,404 tokens paid for that could have been read on the new model, at its prices (the price Loupe gives before a switch also counts the difference between the two models' prices)")
  })
  it('says nothing when nothing was lost, or when the attribution does not count it', () => {
    expect(missLine({ version: 1, outcome: 'full', miss: { tokens: 0, usd: 0 } })).toBeNull()
    expect(missLine({ source: 'transcript', outcome: 'miss', cause: { kind: 'model_switch', label: 'x' } })).toBeNull()
    expect(missLine(null)).toBeNull()
    expect(missLine({ miss: { tokens: 40, usd: null } })).toBe('40 tokens paid for that could have been read')
  })
})

describe('a keep-warm pre-warm', () => {
  it('says why it was sent, not the cause of a pass of the conversation', () => {
    const attribution = { version: 1, outcome: 'full', keepWarm: true, cause: { kind: 'none', label: 'only the new tail paid' }, summary: 'full hit · only the new tail paid' }
    const outcome = passOutcome(pass(usage(3843, 47, 18), attribution), pass(usage(3781, 62)))
    expect(outcome).toEqual({ kind: 'hit', label: 'warm', cause: KEEP_WARM_CAUSE })
    expect(outcome.cause).toMatch(/^a cache pre-warm sent during the pause/)
  })
})
