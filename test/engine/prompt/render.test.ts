import { describe, expect, it } from 'vitest'
import { buildPromptPlan, renderRequest, type HistoryMessage } from '../../../src-main/engine/prompt'
import { baseInput, user } from './fakes'

/**
 * Deep copy with every object's keys in reverse order: same values, different construction. The JSON payloads a
 * tool schema or a tool call carries are copied as they are: their key order is data, kept as written (the API
 * needs it stable, docs/reference/anthropic-api.md §5.3), not something the builder may reorder.
 */
function reversedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversedKeys) as T
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).reverse()) {
      const inner = (value as Record<string, unknown>)[key]
      out[key] = key === 'input' || key === 'input_schema' ? structuredClone(inner) : reversedKeys(inner)
    }
    return out as T
  }
  return value
}

const history: HistoryMessage[] = [
  user('Look at src/a.ts', 'e1'),
  {
    message: {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Let me read it.', signature: 'sig' },
        { type: 'tool_use', id: 'tu1', name: 'read', input: { path: 'src/a.ts', limit: 20 } },
      ],
    },
    provenance: { entryIds: ['e2'], kind: 'assistant' },
  },
  {
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: 'export {}' }], is_error: false }] },
    provenance: { entryIds: ['e3'], kind: 'tool_results' },
    notes: [{ kind: 'path_rule', path: '.claude/rules/ts.md', patterns: ['src/**'], trigger: 'src/a.ts', text: 'Use strict types.' }],
  },
]

describe('renderRequest', () => {
  it('gives identical JSON bytes for the same plan', () => {
    const plan = buildPromptPlan(baseInput({ history, previousTailIndex: 1 }))
    expect(JSON.stringify(renderRequest(plan))).toBe(JSON.stringify(renderRequest(plan)))
  })

  it('gives identical bytes for equal inputs built as different objects with keys in another order', () => {
    const a = baseInput({ history, previousTailIndex: 1 })
    const b = { ...reversedKeys(a), hasher: a.hasher }
    expect(JSON.stringify(renderRequest(buildPromptPlan(b)))).toBe(JSON.stringify(renderRequest(buildPromptPlan(a))))
  })

  it('writes top-level keys in one order: model, max_tokens, system, tools, messages, thinking', () => {
    const withThinking = renderRequest(buildPromptPlan(baseInput({ thinking: { budget_tokens: 2048, type: 'enabled' } as never })))
    expect(Object.keys(withThinking)).toEqual(['model', 'max_tokens', 'system', 'tools', 'messages', 'thinking'])
    expect(JSON.stringify(withThinking.thinking)).toBe('{"type":"enabled","budget_tokens":2048}')
    expect(Object.keys(renderRequest(buildPromptPlan(baseInput({ tools: [] }))))).toEqual(['model', 'max_tokens', 'system', 'messages'])
  })

  it('writes each block with its keys in a fixed order', () => {
    const request = renderRequest(buildPromptPlan(baseInput({ history: reversedKeys(history), previousTailIndex: 1 })))
    const json = JSON.stringify(request.messages)
    expect(json).toContain('{"type":"tool_use","id":"tu1","name":"read","input":{"path":"src/a.ts","limit":20},"cache_control":{"type":"ephemeral"}}')
    expect(json).toContain('{"type":"tool_result","tool_use_id":"tu1","content":[{"type":"text","text":"export {}"}],"is_error":false}')
    expect(json).toContain('{"type":"thinking","thinking":"Let me read it.","signature":"sig"}')
  })
})
