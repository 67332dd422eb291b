/**
 * The entry bodies of engine/conversation/entries.ts as values to check at run time, for bodies that did not come from this app's own
 * loop (a session export read back, docs/store.md "Export and import"). Each schema is tied to its type below: a
 * kind added to EntryBody without a schema, or a schema that accepts what its type does not, fails the typecheck.
 *
 * The schemas take fields they do not name (a newer export may carry more), and check every field the engine and the
 * chat read: a body that passes reads as its type everywhere.
 */
import { z } from 'zod'
import { ChangePreviewSchema, PermissionModeSchema } from '../../../src-preload/contract'
import type { EntryBody, EntryId, PassId } from '../../engine/conversation/entries'

const Text = z.looseObject({ type: z.literal('text'), text: z.string() })
const Image = z.looseObject({ type: z.literal('image'), source: z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }) })
const Thinking = z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() })
const RedactedThinking = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() })
const ToolUse = z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() })
const EntryIdText = z.string().transform((id) => id as EntryId)

/** A context note (engine/prompt/notes.ts), as an entry or a session's state carries it. */
export const NoteSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('memory_saved'), scope: z.enum(['project', 'user']), text: z.string(), entryId: z.string() }),
  z.looseObject({ kind: z.literal('nested_instructions'), dir: z.string(), path: z.string(), trigger: z.string(), text: z.string() }),
  z.looseObject({ kind: z.literal('path_rule'), path: z.string(), patterns: z.array(z.string()), trigger: z.string(), text: z.string() }),
  z.looseObject({
    kind: z.literal('file_changed'),
    path: z.string(),
    fileKind: z.enum(['instructions', 'rule', 'memory', 'skill']),
    change: z.enum(['modified', 'added', 'removed']),
    entryId: z.string().nullable(),
  }),
  z.looseObject({ kind: z.literal('text'), label: z.string(), text: z.string(), entryId: z.string().nullable() }),
])

const Checkpoint = z.looseObject({
  kind: z.literal('checkpoint'),
  trigger: z.enum(['auto', 'manual', 'partial', 'tool']),
  focus: z.string().nullable(),
  instructions: z.string().nullable(),
  stage: z.enum(['trim', 'summary']),
  view: z.looseObject({
    head: z.array(Text).nullable(),
    startEntryId: EntryIdText.nullable(),
    replaced: z.array(z.looseObject({ entryId: EntryIdText, content: z.string() })),
    dropped: z.array(EntryIdText),
  }),
  summary: z.string().nullable(),
  summaryEdited: z.boolean(),
  summaryForm: z.enum(['cut', 'upto', 'standalone', 'extension']).nullable(),
  trimmed: z.array(z.looseObject({ entryId: EntryIdText, toolName: z.string(), chars: z.number(), keptChars: z.number() })),
  replaced: z
    .looseObject({ fromEntryId: EntryIdText.nullable(), toEntryId: EntryIdText.nullable(), entries: z.number(), messages: z.number(), estimatedTokens: z.number() })
    .nullable(),
  reinjected: z.looseObject({
    files: z.array(z.looseObject({ path: z.string(), tokens: z.number(), offered: z.enum(['content', 'path_only']) })),
    pins: z.array(z.looseObject({ pinId: z.string(), status: z.enum(['kept', 'in_summary', 'reinjected', 'lost']) })),
    sessionBlock: z.looseObject({ changed: z.boolean(), tokensBefore: z.number(), tokensAfter: z.number() }).nullable(),
  }),
  tokens: z.looseObject({
    before: z.looseObject({ real: z.number().nullable(), estimated: z.number() }),
    after: z.looseObject({ estimated: z.number() }),
    windowTokens: z.number(),
    targetTokens: z.number(),
  }),
  costUsd: z.number(),
  summaryPassIds: z.array(z.string()),
  notes: z.array(z.string()),
})

/** One schema per kind of EntryBody, each giving exactly that kind's type. */
const ENTRY_BODY_SCHEMAS: { readonly [K in EntryBody['kind']]: z.ZodType<Extract<EntryBody, { kind: K }>, unknown> } = {
  user_message: z.looseObject({ kind: z.literal('user_message'), content: z.array(z.discriminatedUnion('type', [Text, Image])), notes: z.array(NoteSchema).optional() }),
  assistant_message: z.looseObject({
    kind: z.literal('assistant_message'),
    passId: z.string().transform((id) => id as PassId),
    content: z.array(z.discriminatedUnion('type', [Text, Thinking, RedactedThinking, ToolUse])),
    stopReason: z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded']).nullable(),
    partial: z.boolean(),
    service: z.enum(['simulator', 'anthropic']).optional(),
  }),
  tool_result: z.looseObject({
    kind: z.literal('tool_result'),
    toolUseId: z.string(),
    toolName: z.string(),
    content: z.string(),
    isError: z.boolean(),
    outcome: z.enum(['ran', 'denied', 'blocked', 'interrupted', 'invalid']),
    notes: z.array(NoteSchema).optional(),
    change: ChangePreviewSchema.optional(),
  }),
  approval: z.looseObject({
    kind: z.literal('approval'),
    toolUseId: z.string(),
    decision: z.enum(['allowed', 'denied']),
    via: z.string(),
    reason: z.string().optional(),
    rule: z.string().optional(),
  }),
  // Only the modes the app has: the chat shows this one as the session's mode from here on.
  mode_switched: z.looseObject({ kind: z.literal('mode_switched'), mode: PermissionModeSchema }),
  model_switched: z.looseObject({ kind: z.literal('model_switched'), model: z.string() }),
  memory_saved: z.looseObject({ kind: z.literal('memory_saved'), scope: z.enum(['project', 'user']), fact: z.string() }),
  todo_updated: z.looseObject({ kind: z.literal('todo_updated'), todos: z.array(z.looseObject({ content: z.string(), status: z.string() })) }),
  turn_failed: z.looseObject({ kind: z.literal('turn_failed'), message: z.string(), errorKind: z.string(), retryable: z.boolean() }),
  turn_ended: z.looseObject({ kind: z.literal('turn_ended'), reason: z.enum(['end_turn', 'cancelled', 'pass_limit', 'error', 'max_tokens', 'context_window', 'refusal']) }),
  checkpoint: Checkpoint,
  context_edit: z.looseObject({
    kind: z.literal('context_edit'),
    source: z.string(),
    edits: z.array(z.looseObject({ entryId: EntryIdText, action: z.enum(['replace', 'drop']), content: z.string().optional(), reason: z.string() })),
  }),
  pin: z.discriminatedUnion('action', [
    z.looseObject({ kind: z.literal('pin'), action: z.literal('added'), pinId: z.string(), text: z.string(), sourceEntryId: EntryIdText.nullable() }),
    z.looseObject({ kind: z.literal('pin'), action: z.literal('removed'), pinId: z.string() }),
  ]),
  notice: z.looseObject({
    kind: z.literal('notice'),
    source: z.enum(['compaction', 'extension', 'pins', 'instructions', 'nested_instructions', 'permissions']),
    level: z.enum(['info', 'warning']),
    text: z.string(),
  }),
}

const isKnownKind = (kind: string): kind is EntryBody['kind'] => Object.hasOwn(ENTRY_BODY_SCHEMAS, kind)

/**
 * What is wrong with `body` as an entry body, in words ("content is missing", "kind weird is not an entry kind"), or
 * null when it reads as one.
 */
export function entryBodyProblem(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not an object'
  const kind = (body as { kind?: unknown }).kind
  if (typeof kind !== 'string') return 'kind is missing'
  if (!isKnownKind(kind)) return `kind ${JSON.stringify(kind.slice(0, 40))} is not an entry kind`
  const parsed = ENTRY_BODY_SCHEMAS[kind].safeParse(body)
  if (parsed.success) return null
  const issue = parsed.error.issues[0]!
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the body'
  const missing = issue.code === 'invalid_type' && getIn(body, issue.path) === undefined
  return missing ? `${where} is missing` : `${where}: ${issue.message}`
}

function getIn(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let at = value
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined
    at = (at as Record<PropertyKey, unknown>)[key]
  }
  return at
}
