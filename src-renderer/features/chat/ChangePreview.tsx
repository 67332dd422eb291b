import type { ChangePreviewView } from '../../../src-preload/contract'

/** Changed lines are <ins> and <del>, which screen readers announce as insertions and deletions. */
const LINE = { context: 'span', added: 'ins', removed: 'del' } as const
const SIGN = { context: ' ', added: '+', removed: '-' } as const

/**
 * The lines an edit_file or write_file call would change, shown with its approval so the user approves the change
 * itself, not only the file's name. The host makes the preview with the tool's own checks
 * (src-main/node/tools/change-file.ts): a call that will be refused says why instead.
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
              {(preview.hunks.length > 1 || hunk.newStart > 1) && (
                <span className="change-hunk-head">{hunk.newStart > 0 ? `line ${hunk.newStart}` : 'the whole file'}</span>
              )}
              {hunk.lines.map((line, i) => {
                const Line = LINE[line.kind]
                // The sign is drawn by CSS (data-sign), so copying the lines copies the file's text only.
                return (
                  <Line key={i} className={`change-line ${line.kind}`} data-sign={SIGN[line.kind]}>
                    {line.text}
                  </Line>
                )
              })}
            </span>
          ))}
        </pre>
      )}
      {preview.omitted > 0 && (
        <p className="change-preview-note">
          {preview.omitted.toLocaleString('en')} more line{preview.omitted === 1 ? '' : 's'} of the change are not shown.
        </p>
      )}
    </div>
  )
}
