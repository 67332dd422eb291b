/**
 * The instruction and memory files as the prompt builder resolved them: each file with its fate (sent whole, cut,
 * only listed, sent once as a duplicate, skipped and why, waiting for a matching read), its share of the session
 * block, and its imports below it.
 */
import type { FileNodeView, FilesListingView } from '../../../../src-preload/contract'
import { useMemo, useState, type KeyboardEvent } from 'react'
import { grouped } from '../../../ui/format'
import { listTabStop, verticalStep } from '../../../ui/vertical-list'
import { budgetWords, type Waiting } from '../budget-words'

const STATUS: Record<FileNodeView['status'], { label: string; tone: string }> = {
  included: { label: 'included', tone: 'ok' },
  cut: { label: 'cut', tone: 'warn' },
  omitted: { label: 'omitted', tone: 'bad' },
  duplicate: { label: 'once', tone: '' },
  empty: { label: 'empty', tone: '' },
  skipped: { label: 'skipped', tone: 'bad' },
  conditional: { label: 'paths:', tone: 'accent' },
  nested: { label: 'on read', tone: 'accent' },
}

interface Props {
  readonly listing: FilesListingView
  /** The files on disk the session shown does not send yet, with the session block it sends meanwhile; else null. */
  readonly waiting: Waiting | null
  readonly openPath: string | null
  /** The absolute paths of files holding text the user has not saved (the open one, and those left for another). */
  readonly unsaved: ReadonlySet<string>
  onOpen(path: string): void
  onCreate(path: string): void
}

export function FileTree({ listing, waiting, openPath, unsaved, onOpen, onCreate }: Props) {
  const budget = budgetWords(listing, waiting)
  return (
    <nav className="files-tree" aria-label="Instruction and memory files">
      <h2 id="files-tree-instructions">Instructions</h2>
      {listing.instructions.length === 0 ? (
        <p className="muted small">
          {listing.creatable.some((c) => c.kind === 'instructions')
            ? 'No instruction file yet. Create an AGENTS.md below to tell the agent how this project builds and tests.'
            : 'No instruction file here.'}
        </p>
      ) : (
        <Tree labelledBy="files-tree-instructions" nodes={listing.instructions} openPath={openPath} unsaved={unsaved} onOpen={onOpen} />
      )}
      <h2 id="files-tree-memory">Memory</h2>
      {listing.memory.length === 0 ? (
        <p className="muted small">No memory yet: facts the agent saves with its <code>remember</code> tool land here.</p>
      ) : (
        <Tree labelledBy="files-tree-memory" nodes={listing.memory} openPath={openPath} unsaved={unsaved} onOpen={onOpen} />
      )}
      {/* Named as the inspector names it, on its basis, so the two never read as different sizes of one thing: the block
          the session sends, and, while an edit waits, the size the files on disk make it (budget-words.ts). */}
      <p className="files-budget muted small" data-testid="files-budget">
        {budget.block}
      </p>
      {budget.disk && (
        <p className="files-budget muted small" data-testid="files-budget-disk">
          {budget.disk}
        </p>
      )}
      {listing.creatable.length > 0 && (
        <>
          <h2>Create</h2>
          <ul className="files-create">
            {listing.creatable.map((c) => (
              <li key={c.path}>
                <button type="button" onClick={() => onCreate(c.path)} title={c.path}>
                  + {c.label}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {listing.notes.length > 0 && (
        <details className="files-notes">
          <summary>What the prompt builder skipped, cut or merged ({listing.notes.length})</summary>
          <ul>
            {listing.notes.map((n, i) => (
              <li key={i}>
                <code>{n.kind}</code> {n.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </nav>
  )
}

interface TreeProps {
  readonly labelledBy: string
  readonly nodes: readonly FileNodeView[]
  readonly openPath: string | null
  readonly unsaved: ReadonlySet<string>
  onOpen(path: string): void
}

/**
 * One tree, one Tab stop (the WAI-ARIA tree pattern): the keyboard enters at the open file, or the last one it
 * was on, or the first; Up and Down move through the rows shown, Home and End to the ends, Enter or Space opens.
 * A file with imports folds: Left folds it (or, folded or without imports, goes to the file that imports it),
 * Right unfolds it (or, unfolded, goes to its first import); the triangle does the same with the mouse. The tree
 * starts unfolded: an instruction file's imports are part of what it sends.
 */
function Tree({ labelledBy, nodes, openPath, unsaved, onOpen }: TreeProps) {
  // Rows are told apart by their place in the tree, not their path: a file imported by two files is listed twice.
  const [current, setCurrent] = useState<string | null>(null)
  // The row the file was opened from, when it was opened here: a file listed twice shows as open where it was chosen.
  const [openedRow, setOpenedRow] = useState<string | null>(null)
  // Folded rows, by place. Folding a row hides its imports' rows, so they leave `rows` (the rows shown) too.
  const [folded, setFolded] = useState<ReadonlySet<string>>(new Set())
  const rows = useMemo(() => flatten(nodes, '', folded), [nodes, folded])
  const toggle = (row: string) =>
    setFolded((before) => {
      const after = new Set(before)
      if (!after.delete(row)) after.add(row)
      return after
    })
  const openRow = rows.find((r) => r.row === openedRow && r.path === openPath)?.row ?? rows.find((r) => r.path === openPath)?.row ?? null
  // The open file's row when a fold hides it: the folded row above it says the open file is inside.
  const allRows = useMemo(() => flatten(nodes, '', new Set()), [nodes])
  const hiddenOpenRow =
    openRow !== null || openPath === null ? null : (allRows.find((r) => r.row === openedRow && r.path === openPath)?.row ?? allRows.find((r) => r.path === openPath)?.row ?? null)
  const openFrom = (row: string, path: string) => {
    setOpenedRow(row)
    onOpen(path)
  }
  // The row that takes Tab: the last one the keyboard was on while it is still shown, else the open file, else the
  // first. A row folded away by the mouse gives Tab back to one shown, so the tree never loses its Tab stop.
  const tabStop = listTabStop(rows.map((r) => r.row), current, openRow)

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const item = (event.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]')
    if (item === null) return
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="treeitem"]')]
    const at = items.indexOf(item)
    let next: HTMLElement | null | undefined = null
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
      case 'Home':
      case 'End':
        next = verticalStep(items, at, event.key)
        break
      case 'ArrowLeft':
        if (item.getAttribute('aria-expanded') === 'true') {
          event.preventDefault()
          toggle(item.dataset.treeRow!)
          return
        }
        next = item.parentElement?.closest<HTMLElement>('[role="treeitem"]')
        break
      case 'ArrowRight':
        if (item.getAttribute('aria-expanded') === 'false') {
          event.preventDefault()
          toggle(item.dataset.treeRow!)
          return
        }
        next = item.querySelector<HTMLElement>(':scope > [role="group"] > [role="treeitem"]')
        break
      case 'Enter':
      case ' ': {
        event.preventDefault()
        const path = item.dataset.treePath
        const row = item.dataset.treeRow
        if (path !== undefined && row !== undefined) openFrom(row, path)
        return
      }
      default: return
    }
    event.preventDefault()
    next?.focus()
  }

  return (
    <ul role="tree" aria-labelledby={labelledBy} onKeyDown={onKeyDown}>
      {nodes.map((n, i) => (
        <Node key={`${n.path}:${n.tier}`} node={n} row={rowKey('', i)} depth={0} openRow={openRow} hiddenOpenRow={hiddenOpenRow} tabStop={tabStop} folded={folded} unsaved={unsaved} onOpen={openFrom} onToggle={toggle} onFocusRow={setCurrent} />
      ))}
    </ul>
  )
}

const rowKey = (parent: string, index: number): string => (parent === '' ? String(index) : `${parent}/${index}`)

/** The rows shown, in order: a folded row's imports are not. */
function flatten(nodes: readonly FileNodeView[], parent: string, folded: ReadonlySet<string>): Array<{ row: string; path: string }> {
  return nodes.flatMap((n, i) => {
    const row = rowKey(parent, i)
    return [{ row, path: n.path }, ...(folded.has(row) ? [] : flatten(n.children, row, folded))]
  })
}

interface NodeProps {
  readonly node: FileNodeView
  /** Its place in the tree ("0/2": the third import of the first file). */
  readonly row: string
  readonly depth: number
  /** The row of the open file (its first, when it is listed twice). */
  readonly openRow: string | null
  /** The open file's row when a fold hides it. */
  readonly hiddenOpenRow: string | null
  readonly tabStop: string | null
  readonly folded: ReadonlySet<string>
  readonly unsaved: ReadonlySet<string>
  onOpen(row: string, path: string): void
  onToggle(row: string): void
  onFocusRow(row: string): void
}

function Node({ node, row, depth, openRow, hiddenOpenRow, tabStop, folded, unsaved, onOpen, onToggle, onFocusRow }: NodeProps) {
  const status = STATUS[node.status]
  const edited = unsaved.has(node.absPath)
  const open = row === openRow
  const hasImports = node.children.length > 0
  const expanded = hasImports && !folded.has(row)
  const holdsOpen = !expanded && hiddenOpenRow !== null && hiddenOpenRow.startsWith(`${row}/`)
  // Named by its own row: a treeitem's content includes its imports, which would otherwise be read as its name.
  const name = [node.path, status.label, edited ? 'unsaved changes' : '', node.tokens > 0 ? `about ${grouped(node.tokens)} tokens` : '', holdsOpen ? 'the open file is among its imports' : '']
    .filter((p) => p !== '')
    .join(', ')
  return (
    <li
      role="treeitem"
      aria-label={name}
      aria-selected={open}
      aria-expanded={hasImports ? expanded : undefined}
      tabIndex={row === tabStop ? 0 : -1}
      data-tree-path={node.path}
      data-tree-row={row}
      onFocus={(event) => {
        // Focus bubbles from an import's row through every file above it: only the row focused counts.
        if (event.target === event.currentTarget) onFocusRow(row)
      }}
    >
      <div
        className={`files-node${open ? ' open' : ''}${holdsOpen ? ' holds-open' : ''}`}
        style={{ paddingLeft: 6 + depth * 16 }}
        onClick={(event) => {
          event.stopPropagation()
          onOpen(row, node.path)
        }}
        title={node.reason ?? node.absPath}
        data-path={node.path}
        data-status={node.status}
      >
        {hasImports ? (
          // The mouse's way to fold; the keyboard's is Left and Right on the row (one Tab stop for the whole tree).
          <span
            className="files-node-fold"
            aria-hidden="true"
            title={expanded ? 'Hide its imports' : 'Show its imports'}
            onClick={(event) => {
              event.stopPropagation()
              onToggle(row)
            }}
          >
            {expanded ? '▾' : '▸'}
          </span>
        ) : (
          <span className="files-node-fold" aria-hidden="true" />
        )}
        <span className="files-node-path">
          {depth > 0 && <span className="muted">@ </span>}
          {node.path}
        </span>
        {edited && (
          <span className="files-node-unsaved" role="img" aria-label="unsaved changes" title="Unsaved changes: open the file to save or revert them">
            ●
          </span>
        )}
        {/* Kept together: on the path's line, or both on the line under it (files.css). */}
        <span className="files-node-figures">
          <span className={`chip ${status.tone}`}>{status.label}</span>
          <span className="files-node-tokens muted">{node.tokens > 0 ? `≈${grouped(node.tokens)} tok` : ''}</span>
        </span>
      </div>
      {(node.reason || node.patterns.length > 0) && (
        <div className="files-node-reason muted small" style={{ paddingLeft: 12 + depth * 16 }}>
          {node.patterns.length > 0 ? `when a read or edit matches ${node.patterns.join(', ')}` : node.reason}
        </div>
      )}
      {expanded && (
        <ul role="group">
          {node.children.map((c, i) => (
            <Node key={c.path} node={c} row={rowKey(row, i)} depth={depth + 1} openRow={openRow} hiddenOpenRow={hiddenOpenRow} tabStop={tabStop} folded={folded} unsaved={unsaved} onOpen={onOpen} onToggle={onToggle} onFocusRow={onFocusRow} />
          ))}
        </ul>
      )}
    </li>
  )
}
