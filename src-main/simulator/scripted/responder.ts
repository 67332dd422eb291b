/**
 * The scripted agent: the simulator's default Responder. It reads the user's newest words and the tools on
 * offer, calls tools in believable steps (read before edit, list then read the README, parallel reads), then
 * answers in text grounded in what the tools returned. Compaction requests get an extractive summary. Same
 * request, same answer: nothing here is random or time-dependent.
 */
import type { DraftBlock, Responder, ResponderInput, ResponderOutput } from '../responder'
import { nextMove, forcedCall, type PlannedCall } from './agent'
import { finalAnswer } from './answer'
import { readTurn, type Turn } from './conversation'
import { parseIntent, type Intent } from './intent'
import { writeSummary } from './summary'

/** The tool an intent cannot do without (its first step), for saying so when it is not offered. */
function mainTool(intent: Intent): string | null {
  switch (intent.kind) {
    case 'summary':
    case 'chat':
      return null
    case 'remember':
      return 'remember'
    case 'edit':
      return 'edit_file'
    case 'write':
      return 'write_file'
    case 'run':
      return 'bash'
    case 'grep':
      return 'grep'
    case 'glob':
      return 'glob'
    case 'read':
      return 'read_file'
    case 'list':
    case 'explore':
      return 'list_dir'
    case 'todo':
      return 'todo_write'
    case 'skill':
      return 'skill'
    case 'compact':
      return 'compact'
  }
}

function thinkingFor(turn: Turn, intent: Intent, plan: string): DraftBlock {
  const asked = turn.request.length > 160 ? `${turn.request.slice(0, 160)}…` : turn.request
  return { type: 'thinking', thinking: `The user asked: "${asked}". That reads as ${/^[aeiou]/.test(intent.kind) ? 'an' : 'a'} ${intent.kind} request. ${plan}` }
}

function callBlocks(calls: ReadonlyArray<PlannedCall>, parallel: boolean): DraftBlock[] {
  return (parallel ? calls : calls.slice(0, 1)).map((c) => ({ type: 'tool_use', name: c.name, input: c.input }))
}

export function createScriptedResponder(): Responder {
  return {
    respond({ request, thinking }: ResponderInput): ResponderOutput {
      const turn = readTurn(request)
      const intent = parseIntent(turn.request)
      const choice = request.tool_choice
      const parallel = !choice?.disable_parallel_tool_use
      const toolsAllowed = choice?.type !== 'none' && turn.tools.size > 0
      const content: DraftBlock[] = []

      if (intent.kind === 'summary') {
        const last = request.messages.length - 1
        const text = writeSummary(request.messages.slice(0, last), turn.request)
        if (thinking) content.push(thinkingFor(turn, intent, 'I will write an extractive summary in the sections asked for.'))
        return { content: [...content, { type: 'text', text }] }
      }

      const move = toolsAllowed ? nextMove(intent, turn) : ({ kind: 'final' } as const)
      if (move.kind === 'call') {
        if (thinking) content.push(thinkingFor(turn, intent, `Next step: ${move.calls.map((c) => c.name).join(', ')}.`))
        content.push({ type: 'text', text: move.intro }, ...callBlocks(move.calls, parallel))
        return { content }
      }
      // A forced tool_choice must still produce a call, even when the words needed none.
      if (toolsAllowed && (choice?.type === 'any' || choice?.type === 'tool')) {
        const forced = forcedCall(turn, choice.type === 'tool' ? choice.name : null)
        if (forced) return { content: [...callBlocks([forced], true)] }
      }
      const tool = mainTool(intent)
      const missing = turn.rounds.length === 0 && tool !== null && !turn.tools.has(tool) ? tool : null
      if (thinking) content.push(thinkingFor(turn, intent, 'I have what I need to answer.'))
      content.push({ type: 'text', text: finalAnswer(intent, turn, missing) })
      return { content }
    },
  }
}
