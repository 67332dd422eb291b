/**
 * Reads a Messages API body the way the API does: shape checks and the rules listed in
 * docs/reference/anthropic-api.md §2.3 and §12.3, with the error messages observed from the real API. Cache
 * control rules live in breakpoints.ts. Returns the normalised request or throws SimApiError.
 */
import { invalidRequest, SimApiError } from './errors'
import { findSimModel, type SimModel } from './models'
import type { SimBlock, SimMessage, SimRequest, SimThinking, SimTool, SimToolChoice } from './request'

export const API_VERSIONS = ['2023-06-01', '2026-10-21'] as const
export type ApiVersion = (typeof API_VERSIONS)[number]

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/
const USER_BLOCKS = new Set(['text', 'image', 'document', 'tool_result', 'search_result'])
const ASSISTANT_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'server_tool_use'])

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function toBlocks(content: unknown, path: string): SimBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  if (!Array.isArray(content)) throw invalidRequest(`${path}: Input should be a valid list`)
  return content.map((block: unknown, i) => {
    if (!isRecord(block) || typeof block.type !== 'string') throw invalidRequest(`${path}.${i}.type: Field required`)
    return block as SimBlock
  })
}

function readMessages(raw: unknown): SimMessage[] {
  if (raw === undefined) throw invalidRequest('messages: Field required')
  if (!Array.isArray(raw)) throw invalidRequest('messages: Input should be a valid list')
  if (raw.length === 0) throw invalidRequest('messages: at least one message is required')
  return raw.map((message: unknown, i) => {
    if (!isRecord(message)) throw invalidRequest(`messages.${i}: Input should be a valid dictionary`)
    const role = message.role
    if (role !== 'user' && role !== 'assistant') {
      throw invalidRequest(`messages.${i}.role: Input should be 'user' or 'assistant'`)
    }
    const content = toBlocks(message.content, `messages.${i}.content`)
    if (content.length === 0 && !(role === 'assistant' && i === raw.length - 1)) {
      throw invalidRequest(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`)
    }
    const allowed = role === 'user' ? USER_BLOCKS : ASSISTANT_BLOCKS
    content.forEach((block, j) => {
      if (!allowed.has(block.type)) {
        throw invalidRequest(`messages.${i}.content.${j}.type: '${block.type}' blocks are not allowed in '${role}' messages`)
      }
      if (block.type === 'text') {
        if (typeof block.text !== 'string') throw invalidRequest(`messages.${i}.content.${j}.text: Field required`)
        if (block.text.length === 0) {
          if (block.cache_control) throw invalidRequest(`messages.${i}.content.${j}.text: cache_control cannot be set for empty text blocks`)
          throw invalidRequest('messages: text content blocks must be non-empty')
        }
        // The service's answer to a block of only spaces and line breaks, as its users have reported it. The final
        // assistant message (a prefill) is left to the rules of its own.
        if (!/\S/.test(block.text) && !(role === 'assistant' && i === raw.length - 1)) throw invalidRequest('messages: text content blocks must contain non-whitespace text')
      }
    })
    return { role, content }
  })
}

function readSystem(raw: unknown): SimBlock[] {
  if (raw === undefined || raw === null) return []
  if (typeof raw === 'string') return raw.length === 0 ? [] : [{ type: 'text', text: raw }]
  const blocks = toBlocks(raw, 'system')
  blocks.forEach((block, i) => {
    if (block.type !== 'text') throw invalidRequest(`system.${i}.type: Input should be 'text'`)
    if (typeof block.text !== 'string' || block.text.length === 0) {
      if (block.cache_control) throw invalidRequest(`system.${i}.text: cache_control cannot be set for empty text blocks`)
      throw invalidRequest('system: text content blocks must be non-empty')
    }
  })
  return blocks
}

function readTools(raw: unknown): SimTool[] {
  if (raw === undefined || raw === null) return []
  if (!Array.isArray(raw)) throw invalidRequest('tools: Input should be a valid list')
  const seen = new Set<string>()
  return raw.map((tool: unknown, i) => {
    if (!isRecord(tool)) throw invalidRequest(`tools.${i}: Input should be a valid dictionary`)
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      throw invalidRequest(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`)
    }
    if (seen.has(tool.name)) throw invalidRequest('tools: Tool names must be unique.')
    seen.add(tool.name)
    const schema = tool.input_schema
    if (tool.type === undefined || tool.type === 'custom') {
      if (!isRecord(schema)) throw invalidRequest(`tools.${i}.custom.input_schema: Field required`)
      if (schema.type !== 'object') throw invalidRequest(`tools.${i}.custom.input_schema.type: Input should be 'object'`)
    }
    return tool as SimTool
  })
}

function readToolChoice(raw: unknown, tools: ReadonlyArray<SimTool>): SimToolChoice | undefined {
  if (raw === undefined || raw === null) return undefined
  if (!isRecord(raw)) throw invalidRequest('tool_choice: Input should be a valid dictionary')
  switch (raw.type) {
    case 'auto':
    case 'any':
    case 'none':
      return raw as SimToolChoice
    case 'tool':
      if (typeof raw.name !== 'string') throw invalidRequest('tool_choice.tool.name: Field required')
      if (!tools.some((t) => t.name === raw.name)) throw invalidRequest(`tool_choice: tool '${raw.name}' not found in tools`)
      return raw as SimToolChoice
    default:
      throw invalidRequest("tool_choice.type: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'")
  }
}

function readThinking(raw: unknown, model: SimModel, maxTokens: number): SimThinking | undefined {
  if (raw === undefined || raw === null) return undefined
  if (!isRecord(raw)) throw invalidRequest('thinking: Input should be a valid dictionary')
  switch (raw.type) {
    case 'disabled':
    case 'adaptive':
    case 'between_tools':
      return raw as SimThinking
    case 'enabled': {
      if (model.thinking === 'adaptive_only') {
        throw invalidRequest('"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.')
      }
      const budget = raw.budget_tokens
      if (typeof budget !== 'number' || !Number.isInteger(budget)) throw invalidRequest('thinking.enabled.budget_tokens: Field required')
      if (budget < 1024) throw invalidRequest('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024')
      if (budget >= maxTokens) throw invalidRequest('`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size')
      return raw as SimThinking
    }
    default:
      throw invalidRequest("thinking.type: Input tag does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'")
  }
}

/**
 * §2.1, §5.1: `max_tokens: 0` is a cache pre-warm — allowed only non-streaming (checked with max_tokens), without a
 * forced tool choice, without `thinking.type: "enabled"` and without `output_config.format`. The wording is ours
 * (the API's is not recorded, docs/simulator.md departure 15).
 */
function checkPrewarm(toolChoice: SimToolChoice | undefined, thinking: unknown, outputConfig: unknown): void {
  if (toolChoice && (toolChoice.type === 'any' || toolChoice.type === 'tool')) throw invalidRequest('max_tokens: 0 (cache pre-warm) cannot be used with a forced tool_choice')
  if (isRecord(thinking) && thinking.type === 'enabled') throw invalidRequest('max_tokens: 0 (cache pre-warm) cannot be used with thinking of type enabled')
  if (isRecord(outputConfig) && outputConfig.format !== undefined && outputConfig.format !== null) throw invalidRequest('max_tokens: 0 (cache pre-warm) cannot be used with output_config.format')
}

/** §2.3: every tool_use must be answered by a tool_result in the very next message, and vice versa. */
function checkToolPairing(messages: ReadonlyArray<SimMessage>): void {
  const seen = new Set<string>()
  messages.forEach((message, i) => {
    if (message.role !== 'assistant') return
    const ids = message.content.filter((b) => b.type === 'tool_use').map((b) => String(b.id))
    for (const id of ids) {
      if (seen.has(id)) throw invalidRequest(`messages.${i}: \`tool_use\` ids must be unique`)
      seen.add(id)
    }
    const next = messages[i + 1]
    if (!next) return
    const answered = new Set(next.content.filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id)))
    const missing = ids.filter((id) => !answered.has(id))
    if (missing.length > 0) {
      throw invalidRequest(`messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`)
    }
  })
  messages.forEach((message, i) => {
    if (message.role !== 'user') return
    const previous = messages[i - 1]
    const offered = new Set(previous?.role === 'assistant' ? previous.content.filter((b) => b.type === 'tool_use').map((b) => String(b.id)) : [])
    const orphans = message.content.filter((b) => b.type === 'tool_result' && !offered.has(String(b.tool_use_id)))
    if (orphans.length > 0) {
      throw invalidRequest(`messages.${i}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${orphans.map((b) => String(b.tool_use_id)).join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`)
    }
  })
}

export interface ValidatedRequest {
  readonly request: SimRequest
  readonly model: SimModel
}

/** Validates a parsed JSON body for POST /v1/messages (or count_tokens when `forCounting`). */
export function validateRequest(body: unknown, version: ApiVersion, forCounting: boolean): ValidatedRequest {
  if (!isRecord(body)) throw invalidRequest('Input should be a valid dictionary')
  if (typeof body.model !== 'string') throw invalidRequest('model: Field required')
  const model = findSimModel(body.model)
  if (!model) throw new SimApiError(404, 'not_found_error', `model: ${body.model}`)
  if (version === '2026-10-21') {
    for (const field of ['temperature', 'top_p', 'top_k']) {
      if (field in body) throw invalidRequest(`${field}: Extra inputs are not permitted`)
    }
  }
  let maxTokens = 0
  if (!forCounting) {
    if (body.max_tokens === undefined) throw invalidRequest('max_tokens: Field required')
    if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 0) {
      throw invalidRequest('max_tokens: Input should be a valid integer greater than or equal to 0')
    }
    maxTokens = body.max_tokens
    if (maxTokens > model.maxOutput) {
      throw invalidRequest(`max_tokens: ${maxTokens} > ${model.maxOutput}, which is the maximum allowed number of output tokens for ${body.model}`)
    }
    if (maxTokens === 0 && body.stream === true) throw invalidRequest('max_tokens: 0 is only allowed for non-streaming requests')
  }
  const messages = readMessages(body.messages)
  const system = readSystem(body.system)
  const tools = readTools(body.tools)
  const toolChoice = readToolChoice(body.tool_choice, tools)
  if (!forCounting && maxTokens === 0) checkPrewarm(toolChoice, body.thinking, body.output_config)
  const thinking = forCounting ? (body.thinking as SimThinking | undefined) : readThinking(body.thinking, model, maxTokens)
  checkToolPairing(messages)
  const last = messages[messages.length - 1]
  if (!forCounting && last?.role === 'assistant' && !model.allowsPrefill) {
    throw invalidRequest('This model does not support assistant message prefill. The conversation must end with a user message.')
  }
  if (version === '2026-10-21') {
    messages.forEach((message, i) =>
      message.content.forEach((block, j) => {
        if (message.role === 'assistant' && block.type === 'document') throw invalidRequest(`messages.${i}.content.${j}: document blocks are not allowed in assistant messages`)
        if (message.role === 'user' && block.type === 'text' && Array.isArray(block.citations) && block.citations.length > 0) {
          throw invalidRequest(`messages.${i}.content.${j}.citations: citations are not allowed in user messages`)
        }
      }),
    )
  }
  const stop = body.stop_sequences
  if (stop !== undefined && (!Array.isArray(stop) || stop.some((s) => typeof s !== 'string'))) {
    throw invalidRequest('stop_sequences: Input should be a valid list of strings')
  }
  const request: SimRequest = {
    model: body.model,
    max_tokens: maxTokens,
    messages,
    system,
    tools,
    stream: body.stream === true,
    stop_sequences: (stop as string[] | undefined) ?? [],
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(thinking ? { thinking } : {}),
    ...(isRecord(body.cache_control) ? { cache_control: body.cache_control as unknown as SimRequest['cache_control'] } : {}),
    ...(isRecord(body.diagnostics) ? { diagnostics: body.diagnostics as SimRequest['diagnostics'] } : {}),
    ...(isRecord(body.output_config) ? { output_config: body.output_config } : {}),
    ...(typeof body.speed === 'string' ? { speed: body.speed } : {}),
    ...(isRecord(body.metadata) ? { metadata: body.metadata } : {}),
  }
  return { request, model }
}
