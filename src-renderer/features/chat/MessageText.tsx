import { Fragment, type ReactNode } from 'react'

/**
 * Renders an assistant's text with the two Markdown forms that matter most for reading code answers: fenced code
 * blocks and `inline code`. Everything else stays plain text (React escapes it), so no model output can inject
 * markup.
 */
export function MessageText({ text }: { text: string }) {
  const parts: ReactNode[] = []
  const fence = /```([^\n`]*)\n([\s\S]*?)(?:```|$)/g
  let last = 0
  for (const m of text.matchAll(fence)) {
    if (m.index > last) parts.push(<Inline key={`t${last}`} text={text.slice(last, m.index)} />)
    parts.push(
      <pre key={`c${m.index}`} className="code-block" data-lang={m[1]?.trim() || undefined}>
        {m[2]!.replace(/\n$/, '')}
      </pre>,
    )
    last = m.index + m[0].length
  }
  if (last < text.length) parts.push(<Inline key={`t${last}`} text={text.slice(last)} />)
  return <div className="msg-text">{parts}</div>
}

function Inline({ text }: { text: string }) {
  const pieces = text.split(/(`[^`\n]+`)/g)
  return (
    <>
      {pieces.map((p, i) =>
        p.length > 2 && p.startsWith('`') && p.endsWith('`') ? <code key={i}>{p.slice(1, -1)}</code> : <Fragment key={i}>{p}</Fragment>,
      )}
    </>
  )
}
