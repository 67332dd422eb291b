import Anthropic from '@anthropic-ai/sdk'
import type { Clock } from '../../src-main/engine/ports'
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src-main/simulator/index'

/** A clock tests move by hand. */
export function manualClock(start = 1_750_000_000_000): Clock & { advance(ms: number): void } {
  let now = start
  return { now: () => now, advance: (ms) => void (now += ms) }
}

export async function withSimulator<T>(options: SimulatorOptions, run: (sim: RunningSimulator) => Promise<T>): Promise<T> {
  const sim = await startSimulator({ seed: 'test', ...options })
  try {
    return await run(sim)
  } finally {
    await sim.close()
  }
}

export function sdk(sim: RunningSimulator, options: { maxRetries?: number; headers?: Record<string, string> } = {}): Anthropic {
  return new Anthropic({ apiKey: 'sk-sim-test', baseURL: sim.baseUrl, maxRetries: options.maxRetries ?? 0, openTelemetry: false, ...(options.headers ? { defaultHeaders: options.headers } : {}) })
}

const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object' as const, properties, required })

/** The tools the app offers, with the argument names the app uses. */
export const APP_TOOLS: Anthropic.Messages.Tool[] = [
  { name: 'read_file', description: 'Read a file', input_schema: obj({ path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } }, ['path']) },
  { name: 'list_dir', description: 'List a directory', input_schema: obj({ path: { type: 'string' } }, ['path']) },
  { name: 'glob', description: 'Find files by glob', input_schema: obj({ pattern: { type: 'string' } }, ['pattern']) },
  { name: 'grep', description: 'Search file contents', input_schema: obj({ pattern: { type: 'string' }, path: { type: 'string' } }, ['pattern']) },
  { name: 'edit_file', description: 'Replace text in a file', input_schema: obj({ path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } }, ['path', 'old_string', 'new_string']) },
  { name: 'write_file', description: 'Write a file', input_schema: obj({ path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']) },
  { name: 'bash', description: 'Run a shell command', input_schema: obj({ command: { type: 'string' } }, ['command']) },
  { name: 'remember', description: 'Save a fact to memory', input_schema: obj({ fact: { type: 'string' }, scope: { type: 'string', enum: ['project', 'user'] } }, ['fact', 'scope']) },
  { name: 'todo_write', description: 'Write the todo list', input_schema: obj({ todos: { type: 'array' } }, ['todos']) },
  { name: 'skill', description: 'Load a skill', input_schema: obj({ name: { type: 'string' } }, ['name']) },
  { name: 'compact', description: 'Compact the conversation', input_schema: obj({ upto: { type: 'string' }, focus: { type: 'string' }, instructions: { type: 'string' } }, []) },
]

export const LONG_SYSTEM = `You are Loupe, a coding agent.\n${'Follow the project rules and keep answers short. '.repeat(400)}`
