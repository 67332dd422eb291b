import type { ReactNode } from 'react'
import type { ChangePreviewView } from '../../../src-preload/contract'

type LineKind = ChangePreviewView['hunks'][number]['lines'][number]['kind']

/** Changed lines are <ins> and <del>, which screen readers announce as insertions and deletions. */
const LINE = { context: 'span', added: 'ins', removed: 'del', skipped: 'span' } as const satisfies Record<LineKind, string>
const SIGN = { context: ' ', added: '+', removed: '-', skipped: '⋯' } as const satisfies Record<LineKind, string>

/** Characters that change a line without showing: marked on changed lines, or `-a` and `+a` would look the same. */
const INVISIBLE = /[\u00a0\u200b-\u200d\u2060\ufeff]|[ \t]+$/g

function withInvisiblesMarked(text: string): ReactNode {
  const parts: ReactNode[] = []
  let from = 0
  for (const match of text.matchAll(INVISIBLE)) {
    const at = match.index
    if (at > from) parts.push(text.slice(from, at))
    const chars = match[0]
    const trailing = chars[0] === ' ' || chars[0] === '\t'
    parts.push(
      <mark key={at} className="change-invisible" title={trailing ? 'Spaces or tabs at the end of the line' : `U+${chars.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`}>
        {trailing ? chars.replace(/\t/g, '→   ').replace(/ /g, '·') : `⟨U+${chars.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`}
      </mark>,
    )
    from = at + chars.length
  }
  if (parts.length === 0) return text
  if (from < text.length) parts.push(text.slice(from))
  return parts
}

/**
 * The lines an edit_file or write_file call would change (with its approval) or changed (with its result), so the
 * user approves and reviews the change itself, not only the file's name. The host makes it with the tool's own
 * checks (src-main/node/tools/change-file.ts): a call that will be refused says why instead.
 */
export function ChangePreview({ preview }: { preview: ChangePreviewView }) {
  const counts = preview.added === 0 && preview.removed === 0 ? null : `+${preview.added} −${preview.removed}`
  return (
    <div className="change-preview" data-testid="change-preview">
      <div className="change-preview-head">
        <span className="change-preview-path">{preview.path}</span>
        {preview.created && <span className="change-preview-tag">new file</span>}
        {counts && (
          <span className="change-preview-counts" aria-label={`${preview.added} lines added, ${preview.removed} removed`}>
            {counts}
          </span>
        )}
      </div>
      {preview.note && <p className="change-preview-note">{preview.note}</p>}
      {preview.hunks.length > 0 && (
        // Focusable so a long change scrolls with the keyboard; labelled so the region says what it is.
        <pre className="change-preview-lines" tabIndex={0} role="region" aria-label={`Changes to ${preview.path}`}>
          {preview.hunks.map((hunk, h) => (
            <span key={h} className="change-hunk">
              {(preview.hunks.length > 1 || hunk.newStart > 1) && <span className="change-hunk-head">line {hunk.newStart || hunk.oldStart}</span>}
              {hunk.lines.map((line, i) => {
                const Line = LINE[line.kind]
                // The sign is drawn by CSS (data-sign), so copying the lines copies the file's text only.
                return (
                  <Line key={i} className={`change-line ${line.kind}`} data-sign={SIGN[line.kind]}>
                    {line.kind === 'added' || line.kind === 'removed' ? withInvisiblesMarked(line.text) : line.text}
                  </Line>
                )
              })}
            </span>
          ))}
        </pre>
      )}
      {preview.omitted > 0 && (
        <p className="change-preview-note">
          {preview.omitted.toLocaleString('en')} changed line{preview.omitted === 1 ? ' is' : 's are'} not shown.
        </p>
      )}
    </div>
  )
}
