/**
 * "Continue as a Loupe session" for a conversation imported from Claude Code. It continues in the session's own
 * project when that is the folder it worked in. When that folder is not on this machine, the import filed the
 * session under its transcript's folder, and the main process refuses to let an agent work there: the button then
 * offers the other open projects to continue into, or says to open the project's folder first.
 *
 * A conversation continued before says so and offers that session first: continuing again is still there, as a
 * second button, and the new session is numbered ("Continued (2): …"), so two identical sessions are not made by a
 * slip (docs/decisions/0026-continuing-twice.md).
 */
import { useEffect, useState } from 'react'
import type { Session } from '../../../src-preload/contract'
import { client } from '../../platform/client'
import { useProjectsStore } from '../../state/projects'
import { findContinuations, openImported } from '../transcripts/actions'
import { continuedBeforeText } from '../transcripts/continuations'
import { continueAsLoupeSession } from './actions'

/** `onContinued`: after the new session is made and shown (the Claude Code panel closes itself then). */
export function ContinueButton({ sessionId, projectId, onContinued }: { sessionId: string; projectId: string; onContinued?: () => void }) {
  const [refusal, setRefusal] = useState<string | null>(null)
  const projects = useProjectsStore((s) => s.projects)
  const others = projects.filter((p) => p.id !== projectId)
  const [target, setTarget] = useState<string>('')
  const chosen = target !== '' ? target : (others[0]?.id ?? '')
  const [continuations, setContinuations] = useState<ReadonlyArray<Session>>([])

  // Read again when a session is made, renamed or deleted anywhere (another window may continue it too).
  useEffect(() => {
    let current = true
    const read = () => void findContinuations(sessionId).then((found) => current && setContinuations(found))
    read()
    const off = [client.on('session.created', read), client.on('session.renamed', read), client.on('session.deleted', read)]
    return () => {
      current = false
      for (const f of off) f()
    }
  }, [sessionId, projects])

  const start = async (into?: string) => {
    const refused = await continueAsLoupeSession(sessionId, into)
    setRefusal(refused)
    if (refused === null) onContinued?.()
  }

  const before = continuedBeforeText(continuations)
  if (refusal === null && before !== null) {
    const newest = continuations[0]!
    return (
      <span className="continue-into" role="group" aria-label="Continued before" data-testid="continued-before">
        <span className="continue-why" role="status">
          {before}
        </span>
        <button type="button" className="primary" onClick={() => void openImported(newest.projectId, newest.id).then(() => onContinued?.())}>
          Open it
        </button>
        <button type="button" onClick={() => void start()} title="Start another Loupe session from this conversation; it is numbered to tell it apart">
          Continue again
        </button>
      </span>
    )
  }
  if (refusal === null) {
    return (
      <span className="continue-into">
        <button type="button" className="primary" onClick={() => void start()}>
          Continue as a Loupe session
        </button>
      </span>
    )
  }
  return (
    <span className="continue-into" role="group" aria-label="Continue into a project">
      <span className="continue-why" role="status">
        {refusal}
      </span>
      {others.length === 0 ? (
        <span>No other project is open: open the project&apos;s folder in the sidebar, then continue into it here.</span>
      ) : (
        <>
          <label>
            Continue into
            <select aria-label="Project to continue in" value={chosen} onChange={(e) => setTarget(e.target.value)}>
              {others.map((p) => (
                <option key={p.id} value={p.id} title={p.root}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="primary" onClick={() => void start(chosen)}>
            Continue there
          </button>
        </>
      )}
    </span>
  )
}
