import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { INPUT_SCHEMAS } from '../../../src-main/engine/tools/schemas'
import { getToolSpec, parseToolCall, TOOL_NAMES, TOOL_SPECS, WIRE_TOOLS } from '../../../src-main/engine/tools'
import { MUTATING_TOOLS, VALID_INPUTS } from './samples'

/** Keeps what both schemas must agree on: structure, types, required keys, enums, numeric bounds. */
function shape(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(shape)
  if (schema === null || typeof schema !== 'object') return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (['description', '$schema', 'minLength', 'maxLength', 'pattern'].includes(key)) continue
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue
    if (key === 'required') out[key] = [...(value as string[])].sort()
    else if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, shape(v)]))
    else out[key] = shape(value)
  }
  if (out.type === 'object' && out.required === undefined) out.required = []
  return out
}

describe('tool specs', () => {
  it('lists exactly the tools the simulator calls, sorted by name', () => {
    const names = TOOL_SPECS.map((spec) => spec.name)
    expect(names).toEqual([
      'bash', 'compact', 'edit_file', 'glob', 'grep', 'list_dir', 'read_file', 'remember', 'skill', 'todo_write', 'write_file',
    ])
    expect(names).toEqual([...TOOL_NAMES])
    expect(WIRE_TOOLS.map((tool) => tool.name)).toEqual(names)
  })

  it.each(TOOL_NAMES)('%s: the wire schema describes what the validator accepts', (name) => {
    const wire = getToolSpec(name).wire.input_schema
    expect(wire).toMatchObject({ type: 'object', additionalProperties: false })
    expect(shape(wire)).toEqual(shape(z.toJSONSchema(INPUT_SCHEMAS[name], { io: 'input' })))
  })

  it.each(TOOL_NAMES)('%s: a valid input parses and an unknown key is refused', (name) => {
    const spec = getToolSpec(name)
    expect(spec.parse(VALID_INPUTS[name])).toMatchObject({ ok: true })
    const extra = spec.parse({ ...VALID_INPUTS[name], surprise: 1 })
    expect(extra.ok).toBe(false)
    if (!extra.ok) expect(extra.error).toContain('surprise')
  })

  it('classifies exactly edit_file, write_file, bash and remember as mutating', () => {
    expect(TOOL_SPECS.filter((spec) => !spec.readOnly).map((spec) => spec.name)).toEqual([...MUTATING_TOOLS].sort())
    expect(TOOL_SPECS.filter((spec) => spec.parallelSafe).map((spec) => spec.name)).toEqual([
      'glob', 'grep', 'list_dir', 'read_file', 'skill',
    ])
  })

  it('names the field at fault when an input is invalid', () => {
    const result = parseToolCall('read_file', { path: 'a', offset: 0 })
    expect(result).toEqual({ ok: false, error: expect.stringContaining('offset') })
    expect(parseToolCall('grep', { pattern: '(' })).toEqual({ ok: false, error: expect.stringContaining('regular expression') })
    expect(parseToolCall('edit_file', { path: 'a', old_string: 'x', new_string: 'x' })).toMatchObject({ ok: false })
    expect(parseToolCall('skill', { name: '../etc' })).toMatchObject({ ok: false })
    expect(parseToolCall('remember', { fact: '   ', scope: 'project' })).toMatchObject({ ok: false })
    expect(parseToolCall('bash', { command: 'ls', timeout_ms: 10_000_000 })).toMatchObject({ ok: false })
    expect(parseToolCall('nope', {})).toEqual({ ok: false, error: 'unknown tool "nope"' })
  })

  it('gives back a typed call', () => {
    const result = parseToolCall('todo_write', VALID_INPUTS.todo_write)
    expect(result).toEqual({ ok: true, value: { name: 'todo_write', input: VALID_INPUTS.todo_write } })
  })
})
