/**
 * What the API requires of a history (docs/reference/anthropic-api.md §2.3), checked after every compaction and
 * context edit: it starts with a user message, roles alternate, every tool_use is answered by a tool_result in the
 * very next message and every tool_result answers a tool_use of the message before, ids are unique, and no message
 * or text block is empty.
 */
import type { WireMessage } from '../model/wire'
import { isBlankText } from '../model/wire'

export function historyProblems(messages: ReadonlyArray<WireMessage>): string[] {
  const problems: string[] = []
  if (messages.length === 0) return ['the history is empty']
  if (messages[0]!.role !== 'user') problems.push('messages[0] is not a user message')
  const seen = new Set<string>()
  messages.forEach((m, i) => {
    if (m.content.length === 0) problems.push(`messages[${i}] is empty`)
    if (i > 0 && messages[i - 1]!.role === m.role) problems.push(`messages[${i - 1}] and messages[${i}] are both ${m.role} messages`)
    m.content.forEach((b, j) => {
      if (b.type === 'text' && isBlankText(b.text)) problems.push(`messages[${i}].content[${j}] is a text block that is empty or only spaces and line breaks`)
    })
    if (m.role === 'assistant') {
      const ids = m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
      for (const id of ids) {
        if (seen.has(id)) problems.push(`tool_use id ${id} appears twice`)
        seen.add(id)
      }
      const next = messages[i + 1]
      const answered = new Set(next?.role === 'user' ? next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : [])
      for (const id of ids) if (!answered.has(id)) problems.push(`tool_use ${id} in messages[${i}] has no tool_result in the next message`)
    } else {
      const previous = messages[i - 1]
      const offered = new Set(previous?.role === 'assistant' ? previous.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [])
      for (const b of m.content) if (b.type === 'tool_result' && !offered.has(b.tool_use_id)) problems.push(`tool_result for ${b.tool_use_id} in messages[${i}] answers no tool_use of the message before`)
    }
  })
  return problems
}
