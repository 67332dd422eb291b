import { useContext, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import type { PendingApproval } from '../../state/chat'
import { answerApproval } from './actions'
import { ChangePreview } from './ChangePreview'
import { useMessageBoxAfterRemoval } from './focus'
import { RevealNewest } from './follow'
import { PathName } from '../../ui/Isolated'

export function ApprovalPrompt({ sessionId, approval }: { sessionId: string; approval: PendingApproval }) {
  const [reason, setReason] = useState('')
  const [denying, setDenying] = useState(false)
  const card = useRef<HTMLDivElement>(null)
  const warningId = useId()
  const approveButton = useRef<HTMLButtonElement>(null)
  const denyButton = useRef<HTMLButtonElement>(null)
  const { request, toolUseId } = approval
  // A call the preview says will be refused changes nothing: nothing to allow for the future.
  const rule = request.preview?.refused ? undefined : request.suggestedRules[0]

  // An approval is easy to miss: when it is asked, the keyboard goes to it — unless the user is busy elsewhere
  // (mayTakeFocus). To "Approve once" (Enter approves, Tab reaches the others) when the call is an ordinary one. A
  // call the card warns about (a command on the deny list, one that can only be approved once) is not run by a
  // reflexive Enter: the keyboard goes to "Deny…", the safe choice, as a destructive dialog focuses Cancel. Enter
  // there opens the deny form and a second Enter denies; approving takes a deliberate step back to "Approve once"
  // (Shift+Tab, or the pointer), with the warning on screen and read out with the button (aria-describedby).
  //
  // Only a card asked while the window is open (askedLive) takes it. One read back with the session, after a reload
  // or a reconnection, is not one the user saw arrive: the keyboard stays where a fresh page leaves it, so an Enter
  // meant for the page does not answer the card.
  //
  // The agent waits on the card, so it is shown whole, its buttons in view: the chat goes to its newest (the card)
  // and follows again, so "Jump to latest" is not drawn over the buttons. Before it paints, and before the focus
  // below: a focus that scrolled the button into view itself would move the view partway, read by the chat as the
  // user scrolling away from the bottom.
  const revealNewest = useContext(RevealNewest)
  useLayoutEffect(() => revealNewest(), [])
  useEffect(() => {
    if (approval.askedLive && mayTakeFocus()) (request.warning ? denyButton : approveButton).current?.focus({ preventScroll: true })
  }, [])

  // Answered, or gone with the turn (Esc stops it), while it holds the keyboard: the message box takes it.
  useMessageBoxAfterRemoval(card)

  // Back from the deny form (Back, or Esc in it), the keyboard returns to the button that opened it.
  const wasDenying = useRef(false)
  useEffect(() => {
    if (wasDenying.current && !denying) denyButton.current?.focus()
    wasDenying.current = denying
  }, [denying])

  return (
    <div ref={card} className="approval" role="group" aria-label="Approval needed">
      <div className="approval-head">
        {/* The call's command or path, the model's words, set apart (bdi) from the card's: a direction override in them cannot reorder it. */}
        <strong>Allow?</strong> <bdi className="approval-summary">{withCode(request.summary)}</bdi>
      </div>
      {request.warning && (
        <p className="approval-warning" id={warningId}>
          {request.warning}
        </p>
      )}
      {approval.refreshed && request.preview && (
        <p className="approval-refreshed" role="status">
          {/* A preview the tool will refuse shows no change: the box under this says why, not "the change" there is not. */}
          <PathName path={request.preview.path} /> changed on disk: {request.preview.refused ? 'the call would now be refused.' : 'this is the change as it would be made now.'}
        </p>
      )}
      {request.preview && <ChangePreview preview={request.preview} />}
      {denying ? (
        <form
          className="approval-actions"
          onSubmit={(e) => {
            e.preventDefault()
            void answerApproval(sessionId, toolUseId, { kind: 'deny', ...(reason.trim() ? { reason: reason.trim() } : {}) })
          }}
          onKeyDown={(e) => {
            // Esc here means "not this form": back to the buttons. Handled, so the window's Esc does not stop the turn.
            if (e.key !== 'Escape') return
            e.preventDefault()
            setDenying(false)
          }}
        >
          {/* Short enough to show whole in the field beside Deny and Back, in the chat beside the inspector at 1280 px. */}
          <input aria-label="Reason for denying" placeholder="Why not? (for the agent)" value={reason} onChange={(e) => setReason(e.target.value)} autoFocus />
          <button type="submit">Deny</button>
          <button type="button" onClick={() => setDenying(false)}>
            Back
          </button>
        </form>
      ) : (
        <div className="approval-actions">
          {/* A warning is read out with the choice that has the keyboard, and Deny is then the marked choice too. */}
          <button ref={approveButton} className={request.warning ? undefined : 'primary'} aria-describedby={request.warning ? warningId : undefined} onClick={() => void answerApproval(sessionId, toolUseId, { kind: 'once' })}>
            Approve once
          </button>
          {rule && (
            <button onClick={() => void answerApproval(sessionId, toolUseId, { kind: 'always', rules: [rule] })} title="Approve this and future calls that match">
              Always allow <code><bdi>{rule.pattern}</bdi></code>
            </button>
          )}
          <button ref={denyButton} className={request.warning ? 'primary' : undefined} aria-describedby={request.warning ? warningId : undefined} onClick={() => setDenying(true)}>
            Deny…
          </button>
        </div>
      )}
    </div>
  )
}

/**
 * Whether a new approval may take the keyboard: when focus is nowhere, or in the chat but not in a field with text
 * being typed (a draft of the next message). Another field (a folder path, a session's name, an editor) keeps it.
 */
function mayTakeFocus(): boolean {
  const active = document.activeElement
  if (active === null || active === document.body) return true
  // Not from another approval already holding it (two asked at once): the first one asked is answered first.
  if (!active.closest('.chat') || active.closest('.approval')) return false
  const typing = (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && active.value.trim() !== ''
  return !typing
}

/** The summary's `quoted` parts (a command, a path) as code, not with their backticks showing. */
function withCode(summary: string): ReactNode {
  const parts = summary.split(/`([^`]+)`/)
  if (parts.length === 1) return summary
  return parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))
}
