/**
 * A refused call's result as the chat shows it: the permission engine's words to the model, with what the user typed
 * (the reason given with Deny) or a deny rule held in the session's state (its pattern and reason)
 * set apart, so that a right-to-left reason, or a direction override in one, does not turn the engine's words after
 * it, as the "Denied: …" note sets the reason apart (ConversationEntry.tsx). The words are the permission engine's
 * (src-main/engine/tools/permissions.ts: `resolveApproval`'s user_denied, `decidePermission`'s deny_rule), which
 * test/renderer/chat/denied-result.test.ts has it write. A result in any other words is shown as it is.
 */
import type { SentencePart } from '../../ui/isolate'

/** `The user declined this bash call: "<reason>". Do not retry it as is; …` */
const USER_DECLINED = /^(The user declined this \S+ call: ")([\s\S]*)("\. Do not retry it as is; [\s\S]*)$/
/** `The user's permission rules forbid bash for "<pattern>" (<reason>). Do not retry it; …` */
const RULE_FORBIDS = /^(The user's permission rules forbid \S+ for ")([\s\S]*?)"(?: \(([\s\S]*)\))?(\. Do not retry it; [\s\S]*)$/

export function deniedResultParts(text: string): SentencePart[] {
  const declined = USER_DECLINED.exec(text)
  if (declined) return [declined[1]!, { isolated: declined[2]! }, declined[3]!]
  const forbids = RULE_FORBIDS.exec(text)
  if (forbids) {
    const [, head, pattern, reason, tail] = forbids
    return [head!, { isolated: pattern! }, ...(reason === undefined ? ['"'] : ['" (', { isolated: reason }, ')']), tail!]
  }
  return [text]
}
