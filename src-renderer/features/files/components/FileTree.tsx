/**
 * The instruction and memory files as the prompt builder resolved them: each file with its fate (sent whole, cut,
 * only listed, sent once as a duplicate, skipped and why, waiting for a matching read), its share of the session
 * block, and its imports below it.
 */
import type { FileNodeView, FilesListingView } from '../../../../src-preload/contract'
import { grouped } from '../../../ui/format'

const STATUS: Record<FileNodeView['status'], { label: string; tone: string }> = {
  included: { label: 'included', tone: 'ok' },
  cut: { label: 'cut', tone: 'warn' },
  omitted: { label: 'omitted', tone: 'bad' },
  duplicate: { label: 'once', tone: '' },
  empty: { label: 'empty', tone: '' },
  skipped: { label: 'skipped', tone: 'bad' },
  conditional: { label: 'paths:', tone: 'accent' },
}

interface Props {
  readonly listing: FilesListingView
  readonly openPath: string | null
  /** The absolute paths of files holding text the user has not saved (the open one, and those left for another). */
  readonly unsaved: ReadonlySet<string>
  onOpen(path: string): void
  onCreate(path: string): void
}

export function FileTree({ listing, openPath, unsaved, onOpen, onCreate }: Props) {
  return (
    <nav className="files-tree" aria-label="Instruction and memory files">
      <h2>Instructions</h2>
      {listing.instructions.length === 0 ? (
        <p className="muted small">No instruction file yet. Create an AGENTS.md below to tell the agent how this project builds and tests.</p>
      ) : (
        <ul role="tree">
          {listing.instructions.map((n) => (
            <Node key={`${n.path}:${n.tier}`} node={n} depth={0} openPath={openPath} unsaved={unsaved} onOpen={onOpen} />
          ))}
        </ul>
      )}
      <h2>Memory</h2>
      {listing.memory.length === 0 ? (
        <p className="muted small">No memory yet: facts the agent saves with remember land here.</p>
      ) : (
        <ul role="tree">
          {listing.memory.map((n) => (
            <Node key={n.path} node={n} depth={0} openPath={openPath} unsaved={unsaved} onOpen={onOpen} />
          ))}
        </ul>
      )}
      <p className="files-budget muted small" data-testid="files-budget">
        Session block ≈ {grouped(listing.sessionBlockTokens)} tokens · instructions {grouped(listing.usedChars)} of {grouped(listing.budgetChars)} characters
      </p>
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

function Node({ node, depth, openPath, unsaved, onOpen }: { node: FileNodeView; depth: number; openPath: string | null; unsaved: ReadonlySet<string>; onOpen(path: string): void }) {
  const status = STATUS[node.status]
  const edited = unsaved.has(node.absPath)
  return (
    <li role="treeitem" aria-selected={node.path === openPath} aria-expanded={node.children.length > 0 ? true : undefined}>
      <button
        type="button"
        className={`files-node${node.path === openPath ? ' open' : ''}`}
        style={{ paddingLeft: 6 + depth * 16 }}
        onClick={() => onOpen(node.path)}
        title={node.reason ?? node.absPath}
        data-path={node.path}
        data-status={node.status}
      >
        <span className="files-node-path">
          {depth > 0 && <span className="muted">@ </span>}
          {node.path}
        </span>
        {edited && (
          <span className="files-node-unsaved" role="img" aria-label="unsaved changes" title="Unsaved changes: open the file to save or revert them">
            ●
          </span>
        )}
        <span className={`chip ${status.tone}`}>{status.label}</span>
        <span className="files-node-tokens muted">{node.tokens > 0 ? `≈${grouped(node.tokens)} tok` : ''}</span>
      </button>
      {(node.reason || node.patterns.length > 0) && (
        <div className="files-node-reason muted small" style={{ paddingLeft: 12 + depth * 16 }}>
          {node.patterns.length > 0 ? `when a read or edit matches ${node.patterns.join(', ')}` : node.reason}
        </div>
      )}
      {node.children.length > 0 && (
        <ul role="group">
          {node.children.map((c) => (
            <Node key={c.path} node={c} depth={depth + 1} openPath={openPath} unsaved={unsaved} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </li>
  )
}
