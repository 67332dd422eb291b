import { Fragment, memo, useContext, useMemo, useRef, useState, type ReactNode } from 'react'
import { parseMarkdown, parseUserText, type Inline, type TableNode, type UserPart } from './markup'
import { foldLongText, unfoldLabel } from './long-text'
import { UserMovesView } from './follow'
import './message-text.css'

/**
 * An assistant's text with the Markdown that matters for reading code answers: fenced code blocks, `inline code`,
 * **bold**, *italic*, links (as their text; the address shows on hover), headings, lists and tables (markup.ts parses it). Every
 * piece is a React text node or element (React escapes text), so no model output can inject markup. Memoised: a
 * message's markdown is parsed again only when its text changes, not at every render of the chat.
 */
export const MessageText = memo(function MessageText({ text, streaming = false }: { text: string; streaming?: boolean }) {
  // A text block with nothing in it (a model's "\n\n" before a tool call) takes no room.
  if (text.trim() === '') return null
  const nodes = parseMarkdown(text, { streaming })
  // A block's margin is its gap from the text around it (message-text.css); at the message's edges there is none.
  const edge = (i: number) => `${i === 0 ? ' at-start' : ''}${i === nodes.length - 1 ? ' at-end' : ''}`
  return (
    <div className="msg-text">
      {nodes.map((node, i) =>
        node.kind === 'code_block' ? (
          <pre key={i} className={`code-block${edge(i)}`} data-lang={node.lang ?? undefined}>
            {node.text}
          </pre>
        ) : node.kind === 'table' ? (
          <MarkdownTable key={i} table={node} className={`md-table-wrap${edge(i)}`} />
        ) : (
          <InlineNode key={i} node={node} />
        ),
      )}
    </div>
  )
})

/** A table scrolls sideways in its own box when it is wider than the chat, instead of widening the message. */
function MarkdownTable({ table, className }: { table: TableNode; className: string }) {
  const align = (c: number) => table.align[c] ?? undefined
  return (
    <div className={className}>
      <table className="md-table">
        <thead>
          <tr>
            {table.head.map((cell, c) => (
              <th key={c} style={{ textAlign: align(c) }}>
                <InlineNodes nodes={cell} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td key={c} style={{ textAlign: align(c) }}>
                  <InlineNodes nodes={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function InlineNodes({ nodes }: { nodes: ReadonlyArray<Inline> }) {
  return (
    <>
      {nodes.map((n, i) => (
        <InlineNode key={i} node={n} />
      ))}
    </>
  )
}

function InlineNode({ node }: { node: Inline }): ReactNode {
  switch (node.kind) {
    case 'text':
      return <Fragment>{node.text}</Fragment>
    case 'code':
      return <code>{node.text}</code>
    case 'strong':
      return (
        <strong>
          <InlineNodes nodes={node.children} />
        </strong>
      )
    case 'em':
      return (
        <em>
          <InlineNodes nodes={node.children} />
        </em>
      )
    case 'link':
      return (
        <span className="md-link" title={node.href}>
          <InlineNodes nodes={node.children} />
        </span>
      )
    case 'heading':
      return (
        <strong className={`md-heading h${node.level}`}>
          <InlineNodes nodes={node.children} />
        </strong>
      )
    case 'list_item':
      // Its marker hangs in the margin, so a long item wraps under its text (the line break after it is kept).
      return (
        <span className="md-li" style={{ marginLeft: `${node.depth * 1.2}em` }}>
          <span className="md-li-marker" aria-hidden={node.marker === '•' ? true : undefined}>
            {node.marker}
          </span>
          <InlineNodes nodes={node.children} />
        </span>
      )
  }
}

/**
 * A user message's text. What the user wrote stays as written; Claude Code's tags in an imported session (the
 * slash command the user ran, what it printed, the caveat written for the model) each become one compact, muted
 * line instead of raw markup, the output and the notes to the model collapsed (markup.ts parses them).
 */
export const UserMessageText = memo(function UserMessageText({ text }: { text: string }) {
  return (
    <div className="msg-text">
      {parseUserText(text).map((part, i) => (
        <UserPartView key={i} part={part} />
      ))}
    </div>
  )
})

function UserPartView({ part }: { part: UserPart }): ReactNode {
  switch (part.kind) {
    case 'text':
      return <UserText text={part.text} />
    case 'command':
      return (
        <div className="cc-markup cc-command" data-cc="command">
          <code>{part.name}</code>
          {part.args && <span className="cc-args"> {part.args}</span>}
          <span className="cc-what"> · command run in Claude Code</span>
        </div>
      )
    case 'shell':
      return (
        <div className="cc-markup cc-command" data-cc="shell">
          <code>! {part.command}</code>
          <span className="cc-what"> · shell command run in Claude Code</span>
        </div>
      )
    case 'output': {
      const firstLine = part.text.split('\n')[0]!
      const oneLine = !part.text.includes('\n') && firstLine.length <= 100
      const label = `${part.source} ${part.stream === 'stderr' ? 'error output' : 'output'}`
      return oneLine ? (
        <div className="cc-markup cc-output" data-cc="output">
          <span className="cc-what">{label}: </span>
          <span className="cc-out-text">{part.text}</span>
        </div>
      ) : (
        <details className="cc-markup cc-output" data-cc="output">
          <summary>
            <span className="cc-what">{label}</span> <span className="cc-preview">{firstLine}</span>
          </summary>
          <pre>{part.text}</pre>
        </details>
      )
    }
    case 'aside':
      return (
        <details className="cc-markup cc-aside" data-cc="aside">
          <summary className="cc-what">{part.label}</summary>
          <div className="cc-aside-text">{part.text}</div>
        </details>
      )
  }
}

/**
 * What the user wrote, folded to its first lines when it is long (a pasted log, long-text.ts), with a button for the
 * rest. Folded again, the message is brought back into view: its end, where "Show less" was, may be far below it.
 */
function UserText({ text }: { text: string }) {
  const folded = useMemo(() => foldLongText(text), [text])
  const [open, setOpen] = useState(false)
  const self = useRef<HTMLDivElement>(null)
  // The move back to the message is the user's, who folded it (follow.ts).
  const userMovesView = useContext(UserMovesView)
  if (!folded) return <div className="user-text">{text}</div>
  const toggle = () => {
    setOpen(!open)
    if (open)
      requestAnimationFrame(() => {
        userMovesView()
        self.current?.scrollIntoView({ block: 'nearest' })
      })
  }
  return (
    <div ref={self} className="user-text-folding">
      <div className="user-text">
        {open ? text : folded.shown}
        {!open && <span aria-hidden="true">…</span>}
      </div>
      <button type="button" className="user-text-unfold" aria-expanded={open} onClick={toggle}>
        {open ? 'Show less' : unfoldLabel(folded)}
      </button>
    </div>
  )
}
