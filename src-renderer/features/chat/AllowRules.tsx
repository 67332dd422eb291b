/**
 * The "always allow" rules the session holds, beside the permission mode: granted from an approval ("Always allow
 * edit_file src/**"), they let later calls through without asking, so they are listed where the mode is and each
 * can be removed (session.revokeRule; the conversation notes it). Read again whenever an approval is answered.
 */
import { useEffect, useRef, useState } from 'react'
import type { RequestOutput } from '../../../src-preload/contract'
import { client } from '../../platform/client'
import { useChatStore } from '../../state/chat'

type Rule = RequestOutput<'session.rules'>['allow'][number]

export function AllowRules({ sessionId }: { sessionId: string }) {
  const [rules, setRules] = useState<ReadonlyArray<Rule>>([])
  const [open, setOpen] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const root = useRef<HTMLSpanElement>(null)

  useEffect(() => {
    let alive = true
    const load = () =>
      void client.request('session.rules', { sessionId }).then((r) => {
        if (alive && r.ok) setRules(r.value.allow)
      })
    load()
    const off = client.on('approval.answered', (e) => e.sessionId === sessionId && load())
    return () => {
      alive = false
      off()
    }
  }, [sessionId])

  // The last rule removed closes the list.
  useEffect(() => {
    if (rules.length === 0 && open) setOpen(false)
  }, [rules.length, open])

  // Open, the list closes on a click elsewhere, as a menu does.
  useEffect(() => {
    if (!open) return
    const outside = (e: MouseEvent) => {
      if (e.target instanceof Node && !root.current?.contains(e.target)) setOpen(false)
    }
    document.addEventListener('mousedown', outside)
    return () => document.removeEventListener('mousedown', outside)
  }, [open])

  if (rules.length === 0) return null
  const remove = async (rule: Rule) => {
    const result = await client.request('session.revokeRule', { sessionId, rule })
    if (result.ok) {
      setRules(result.value.allow)
      // The keyboard stays by the rules: on their button, or on the mode beside it once none is left.
      if (result.value.allow.length > 0) toggle.current?.focus()
      else document.querySelector<HTMLElement>('select[aria-label="Permission mode"]')?.focus()
    } else useChatStore.getState().failed(sessionId, result.error.message)
  }
  return (
    <span
      ref={root}
      className="allow-rules"
      onKeyDown={(e) => {
        // Esc anywhere in it closes the list and goes back to its button. Handled, so it does not also stop the turn
        // (features/palette/shortcuts.ts).
        if (e.key !== 'Escape' || !open) return
        e.preventDefault()
        setOpen(false)
        toggle.current?.focus()
      }}
      onBlur={(e) => {
        // The keyboard left it (Tab past the last Remove): closed, as a click elsewhere closes it.
        if (open && !(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setOpen(false)
      }}
    >
      <button ref={toggle} type="button" aria-expanded={open} onClick={() => setOpen((v) => !v)} title="Calls these rules match run without asking">
        {rules.length} always allowed
      </button>
      {open && (
        <ul className="allow-rules-list" aria-label="Always allowed in this session">
          {rules.map((r) => (
            <li key={`${r.tool}\u0000${r.pattern}`}>
              <code>
                {r.tool} <bdi>{r.pattern}</bdi>
              </code>
              <button type="button" onClick={() => void remove(r)} aria-label={`Stop always allowing ${r.tool} ${r.pattern}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </span>
  )
}
