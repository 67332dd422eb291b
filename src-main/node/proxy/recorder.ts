/**
 * Records what went through the capture proxy as passes (source `proxy`): the exact request bytes, the response as
 * received, usage, cost and timing, in a "captured" session per client (one per client per proxy run) of the
 * project for captured requests. Secrets never reach the store: headers that carry one are dropped (headers.ts).
 *
 * A foreign agent's request has no Loupe provenance, so each block is labelled by its position and kind (tool and
 * its name, system block N, user input / tool results / assistant), and the cache attribution is the engine's own,
 * by first changed block (src-main/node/cache).
 */
import { join } from 'node:path'
import type { Session } from '../../../src-preload/contract'
import type { Clock, Logger } from '../../engine/ports'
import { attributePass } from '../cache'
import { contextFromStored } from '../cache/stored'
import { costUsd } from '../model/models'
import type { Store } from '../store'
import { sha256Hex } from '../store/blobs'
import { joinParts, splitRecord } from '../store/body-split'
import type { NewPass, PassStatus, PassSummary, SegmentMeta, SplitRequest } from '../store/passes'
import { markSession } from '../transcripts/origins'
import type { Exchange } from './forward'
import { wireRequestOf } from '../../engine/model/wire-body'
import { decodeBody, readResponse } from './response'
import { makeFoldersSync } from '../fs/make-folders'

export const CAPTURED_PROJECT_NAME = 'Captured requests'

export interface RecorderOptions {
  readonly store: Store
  readonly clock: Clock
  /** The captured project's folder: `<data folder>/captured`. */
  readonly capturedRoot: string
  /** The upstream, as recorded with each session. */
  readonly upstream: string
  readonly log?: Logger
  readonly onSessionCreated?: (session: Session) => void
  readonly onPassRecorded?: (sessionId: string, pass: PassSummary) => void
}

/** The Messages API paths whose exchanges are passes; anything else (the model list) is forwarded only. */
function passKind(method: string, path: string): NewPass['kind'] | null {
  if (method !== 'POST') return null
  const pathname = path.split('?')[0]!.replace(/\/+$/, '')
  if (pathname.endsWith('/v1/messages')) return 'main'
  if (pathname.endsWith('/v1/messages/count_tokens')) return 'count'
  return null
}

type Json = Record<string, unknown>
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function messageKind(message: unknown): string {
  if (!isRecord(message)) return 'unknown'
  if (message.role === 'assistant') return 'assistant'
  const content = message.content
  return Array.isArray(content) && content.length > 0 && content.every((b) => isRecord(b) && b.type === 'tool_result') ? 'tool_results' : 'user_input'
}

/** Provenance by position and kind: all a proxy can know of a foreign agent's blocks. */
export function foreignSegmentMeta(body: unknown): (path: string) => SegmentMeta {
  const request = isRecord(body) ? body : {}
  return (path) => {
    const m = /^(tools|system|messages)\[(\d+)\]$/.exec(path)
    if (!m) return { provenance: { kind: 'body', foreign: true }, breakpoint: null }
    const index = Number(m[2])
    const list = request[m[1]!]
    const item = Array.isArray(list) ? (list[index] as unknown) : undefined
    switch (m[1]) {
      case 'tools':
        return { provenance: { kind: 'tool', name: isRecord(item) && typeof item.name === 'string' ? item.name : `#${index}`, foreign: true }, breakpoint: null }
      case 'system':
        return { provenance: { kind: 'system', block: `block ${index}`, foreign: true }, breakpoint: null }
      default:
        return { provenance: { kind: 'history', historyKind: messageKind(item), position: index, foreign: true }, breakpoint: null }
    }
  }
}

/**
 * The captured body split as the store would split it, from the parse already done here, when that split
 * re-assembles to exactly the captured text: a body JSON.stringify wrote, as the JS SDKs write them. The store then
 * neither parses, re-serialises nor re-assembles it again (insertSplit checks the split against the text). Null for
 * anything else (another JSON writer's spacing or escapes): the store splits the text itself, and keeps it whole.
 */
export function splitCaptured(text: string, body: unknown): SplitRequest | null {
  if (!isRecord(body)) return null
  const split = splitRecord(body, (item) => JSON.stringify(item))
  let at = 0
  for (const part of joinParts(split.skeleton, split.segments.map((s) => s.text))) {
    const end = at + part.length
    if (end > text.length || text.slice(at, end) !== part) return null
    at = end
  }
  if (at !== text.length) return null
  return { parts: [text], sha256: sha256Hex(text), bytes: Buffer.byteLength(text, 'utf8'), split, segmentHashes: split.segments.map((s) => sha256Hex(s.text)) }
}

export class CaptureRecorder {
  private readonly sessions = new Map<string, string>()
  private projectId: string | null = null
  private recordedCount = 0
  private failedCount = 0
  private lastFailure: { readonly at: number; readonly message: string } | null = null

  constructor(private readonly options: RecorderOptions) {}

  get requests(): number {
    return this.recordedCount
  }

  /** Recorded requests that failed: the upstream answered with an error, could not be reached, or the stream broke. */
  get failed(): number {
    return this.failedCount
  }

  /** The newest failure, in words ("HTTP 401 · authentication_error: invalid x-api-key"), and when it ended. */
  get lastError(): { readonly at: number; readonly message: string } | null {
    return this.lastFailure
  }

  /** client → session id, and how many passes each has, and how many of them failed. */
  capturedSessions(): Array<{ sessionId: string; client: string; passes: number; failed: number }> {
    return [...this.sessions].map(([client, sessionId]) => {
      const passes = this.options.store.passes.list(sessionId)
      return { sessionId, client, passes: passes.length, failed: passes.filter((p) => p.status === 'failed').length }
    })
  }

  get project(): string | null {
    return this.projectId
  }

  private sessionFor(exchange: Exchange): string {
    const known = this.sessions.get(exchange.client)
    if (known !== undefined) return known
    const { store, clock } = this.options
    const now = clock.now()
    if (this.projectId === null) {
      makeFoldersSync(this.options.capturedRoot)
      const project = store.projects.open(this.options.capturedRoot, now)
      if (project.name !== CAPTURED_PROJECT_NAME) store.projects.rename(project.id, CAPTURED_PROJECT_NAME)
      this.projectId = project.id
    }
    const d = new Date(exchange.startedAt)
    const title = `Captured: ${exchange.client.slice(0, 60)} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
    const session = store.sessions.create(this.projectId, title, now)
    markSession(store, session.id, 'captured', { kind: 'proxy', client: exchange.client, userAgent: exchange.userAgent, upstream: this.options.upstream, startedAt: exchange.startedAt })
    this.sessions.set(exchange.client, session.id)
    this.options.onSessionCreated?.(session)
    return session.id
  }

  /** Records one exchange; returns the stored pass, or null for a request that is not a Messages API pass. */
  record(exchange: Exchange): PassSummary | null {
    const kind = passKind(exchange.method, exchange.path)
    if (kind === null) return null
    const { store } = this.options
    const requestText = exchange.requestBody.toString('utf8')
    // Bodies are JSON, hence UTF-8; a body that is not valid UTF-8 is recorded as decoded, and says so.
    const exact = Buffer.byteLength(requestText) === exchange.requestBody.length && Buffer.from(requestText, 'utf8').equals(exchange.requestBody)
    let body: unknown = null
    try {
      body = JSON.parse(requestText)
    } catch {
      body = null
    }
    const contentType = exchange.responseHeaders['content-type']
    const responseText = decodeBody(exchange.responseBody, exchange.responseHeaders['content-encoding'])
    const read = kind === 'count' ? { messageId: null, model: null, usage: null, stopReason: null, error: null } : readResponse(responseText, contentType)
    const model = (isRecord(body) && typeof body.model === 'string' ? body.model : null) ?? read.model ?? 'unknown'
    // An error status says only its number; the body the service sent with it says why, so that is what is kept.
    const error = exchange.error?.kind === 'http_status' && read.error !== null ? read.error : (exchange.error ?? read.error)
    const status: PassStatus = exchange.outcome === 'cancelled' ? 'cancelled' : exchange.outcome === 'done' && read.error === null ? 'done' : 'failed'
    const pass: NewPass = {
      sessionId: '',
      kind,
      model,
      status,
      queuedAt: exchange.startedAt,
      firstByteAt: exchange.firstByteAt,
      doneAt: exchange.endedAt,
      requestBody: requestText,
      segmentMeta: foreignSegmentMeta(body),
      attempts: [{
        startedAt: exchange.startedAt,
        firstByteAt: exchange.firstByteAt,
        endedAt: exchange.endedAt,
        status: exchange.status,
        requestId: exchange.responseHeaders['request-id'] ?? null,
        error,
        responseHeaders: exchange.responseHeaders,
        responseBody: responseText,
      }],
      messageId: read.messageId,
      stopReason: read.stopReason,
      usage: read.usage,
      costUsd: read.usage === null ? null : costUsd(model, read.usage),
      error,
      plan: {
        captured: {
          client: exchange.client,
          userAgent: exchange.userAgent,
          method: exchange.method,
          path: exchange.path,
          upstream: this.options.upstream,
          requestHeaders: exchange.requestHeaders,
          bytesExact: exact,
          // A body refused as too large is not kept (the pass's body is empty): its size and the limit are.
          ...(exchange.refused ? { refused: exchange.refused } : {}),
        },
      },
      source: 'proxy',
    }
    const split = splitCaptured(requestText, body)
    const summary = store.transaction(() => {
      const sessionId = this.sessionFor(exchange)
      // The agent's session was active when the exchange ended: session.list puts it first, and the sidebar, hearing
      // pass.completed, moves it there too (src-renderer/main.tsx).
      store.sessions.writtenTo(sessionId, exchange.endedAt)
      if (split === null) return store.passes.insert({ ...pass, sessionId })
      const { requestBody: _text, ...rest } = pass
      return store.passes.insertSplit({ ...rest, sessionId }, split)
    })
    this.recordedCount++
    if (status === 'failed') {
      this.failedCount++
      const code = exchange.status !== null && (exchange.status < 200 || exchange.status >= 300) ? `HTTP ${exchange.status}` : null
      const what = error ? `${error.kind}: ${error.message}` : 'the response could not be read'
      this.lastFailure = { at: exchange.endedAt, message: code && !what.includes(code) ? `${code} · ${what}` : what }
    }
    const request = kind === 'main' ? wireRequestOf(body) : null
    // What the cache engine would read back from the stored pass, given from what is in hand: the request, the
    // response, and a context with nothing known of how the request was made (a foreign agent's blocks carry
    // positions, not the kinds or entries the context holds), so the pass is not re-assembled from the store.
    const attribution =
      request === null
        ? null
        : attributePass(store, summary, {
            request,
            context: contextFromStored(pass.plan, []),
            responseBody: responseText,
            onError: (err) => this.options.log?.warn('captured pass not attributed', { error: String(err) }),
          })
    const stored: PassSummary = attribution === null ? summary : { ...summary, attribution }
    this.options.onPassRecorded?.(summary.sessionId, stored)
    return stored
  }
}

/** `<data folder>/captured`: the root of the project captured sessions belong to. */
export function capturedRoot(dataDir: string): string {
  return join(dataDir, 'captured')
}
