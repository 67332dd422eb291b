/**
 * The simulator in replay mode: each pass is answered with the recorded assistant message (thinking, text and tool
 * calls, recorded tool-use ids kept; the simulator signs the thinking), set by the harness before the pass is sent.
 */
import type { AssistantContentBlock } from '../../engine/model/wire'
import type { DraftBlock, Responder, ResponderOutput } from '../../simulator'

export class ReplayResponder implements Responder {
  private next: ResponderOutput = { content: [{ type: 'text', text: '(nothing recorded)' }] }

  /** What the next pass answers. */
  answerWith(blocks: ReadonlyArray<AssistantContentBlock>): void {
    const content: DraftBlock[] = []
    for (const b of blocks) {
      if (b.type === 'thinking') content.push({ type: 'thinking', thinking: b.thinking })
      else if (b.type === 'text') content.push({ type: 'text', text: b.text })
      else if (b.type === 'tool_use') content.push({ type: 'tool_use', name: b.name, input: (b.input ?? {}) as Record<string, unknown>, id: b.id })
    }
    this.next = { content: content.length ? content : [{ type: 'text', text: '(no answer)' }] }
  }

  respond(): ResponderOutput {
    return this.next
  }
}
