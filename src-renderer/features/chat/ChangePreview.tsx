import { diffWordsWithSpace } from 'diff'
import type { ReactNode } from 'react'
import type { ChangePreviewView } from '../../../src-preload/contract'

type Hunk = ChangePreviewView['hunks'][number]
type Line = Hunk['lines'][number]
type LineKind = Line['kind']

/** Changed lines are <ins> and <del>, which screen readers announce as insertions and deletions. */
const ELEMENT = { context: 'span', added: 'ins', removed: 'del', skipped: 'span' } as const satisfies Record<LineKind, string>
const SIGN = { context: ' ', added: '+', removed: '-', skipped: '⋯' } as const satisfies Record<LineKind, string>

/** Characters that change a line without showing, and spaces or tabs at its end: marked on changed lines. */
const INVISIBLE = /[\u00a0\u200b-\u200d\u2060\ufeff]|[ \t]+$/g

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`

/**
 * Which characters of each changed line differ from the line it replaced: a removed line and the added line in the
 * same place in a run of as many removed as added lines are compared word by word. Ranges by line index.
 */
function wordChanges(lines: ReadonlyArray<Line>): Map<number, Array<[number, number]>> {
  const out = new Map<number, Array<[number, number]>>()
  for (let i = 0; i < lines.length; ) {
    if (lines[i]!.kind !== 'removed') {
      i++
      continue
    }
    let r = i
    while (r < lines.length && lines[r]!.kind === 'removed') r++
    let s = r
    while (s < lines.length && lines[s]!.kind === 'added') s++
    if (s - r === r - i) {
      for (let k = 0; k < r - i; k++) {
        const [removed, added] = [i + k, r + k]
        const parts = diffWordsWithSpace(lines[removed]!.text, lines[added]!.text)
        const mine: Array<[number, number]> = []
        const theirs: Array<[number, number]> = []
        let at = 0
        let to = 0
        for (const part of parts) {
          if (part.removed) mine.push([at, (at += part.value.length)])
          else if (part.added) theirs.push([to, (to += part.value.length)])
          else {
            at += part.value.length
            to += part.value.length
          }
        }
        // A line changed all over is marked whole by its colour already.
        if (mine.length + theirs.length > 0 && (at === 0 || mine.reduce((n, [a, b]) => n + b - a, 0) < at)) out.set(removed, mine)
        if (mine.length + theirs.length > 0 && (to === 0 || theirs.reduce((n, [a, b]) => n + b - a, 0) < to)) out.set(added, theirs)
      }
    }
    i = s
  }
  return out
}

/** A changed line's text, its changed words and its invisible characters marked. */
function changedText(text: string, words: ReadonlyArray<[number, number]>): ReactNode {
  // Per character: 1 = a changed word, 2 = invisible. Lines are at most 401 characters (the host cuts them).
  const flags = new Uint8Array(text.length)
  for (const [from, to] of words) flags.fill(1, from, to)
  for (const match of text.matchAll(INVISIBLE)) flags.fill(2, match.index, match.index + match[0].length)
  if (!flags.some((f) => f !== 0)) return text
  const parts: ReactNode[] = []
  for (let at = 0; at < text.length; ) {
    let end = at + 1
    while (end < text.length && flags[end] === flags[at]) end++
    const piece = text.slice(at, end)
    if (flags[at] === 0) parts.push(piece)
    else if (flags[at] === 1) parts.push(<mark key={at} className="change-word">{piece}</mark>)
    else {
      const spaces = /^[ \t]+$/.test(piece)
      const code = `U+${piece.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
      parts.push(
        <mark key={at} className="change-invisible" title={spaces ? 'Spaces or tabs at the end of the line' : code}>
          {spaces ? piece.replace(/\t/g, '→   ').replace(/ /g, '·') : [...piece].map(() => `⟨${code}⟩`).join('')}
        </mark>,
      )
    }
    at = end
  }
  return parts
}

/** Where a hunk's first change is in the file as it will be (as it is, for a hunk that only removes). */
function firstChangeLine(hunk: Hunk): number {
  const lead = hunk.lines.findIndex((l) => l.kind !== 'context')
  return (hunk.newStart || hunk.oldStart) + Math.max(0, lead)
}

/**
 * The lines an edit_file or write_file call would change (with its approval) or changed (with its result), so the
 * user approves and reviews the change itself, not only the file's name. The host makes it with the tool's own
 * checks (src-main/node/tools/change-file.ts): a call that will be refused says why instead.
 */
export function ChangePreview({ preview }: { preview: ChangePreviewView }) {
  const counts = preview.added === 0 && preview.removed === 0 ? null : `+${preview.added} −${preview.removed}`
  return (
    <div className={`change-preview${preview.refused ? ' refused' : ''}`} data-testid="change-preview">
      <div className="change-preview-head">
        <span className="change-preview-path">{preview.path}</span>
        {preview.created && <span className="change-preview-tag">new file</span>}
        {counts && (
          <span className="change-preview-counts" aria-label={`${plural(preview.added, 'line', 'lines')} added, ${preview.removed.toLocaleString('en')} removed`}>
            {counts}
          </span>
        )}
      </div>
      {preview.note && (
        <p className={preview.refused ? 'change-preview-refusal' : 'change-preview-note'} role={preview.refused ? 'note' : undefined}>
          {preview.note}
        </p>
      )}
      {preview.hunks.length > 0 && (
        // Focusable so a long change scrolls with the keyboard; labelled so the region says what it is. Long lines wrap
        // (theme.css): a word changed at the end of one is in view, not past the card's edge.
        <pre className="change-preview-lines" tabIndex={0} role="region" aria-label={`Changes to ${preview.path}`}>
          {preview.hunks.map((hunk, h) => {
            const words = wordChanges(hunk.lines)
            return (
              <span key={h} className="change-hunk">
                {(preview.hunks.length > 1 || firstChangeLine(hunk) > 1) && <span className="change-hunk-head">line {firstChangeLine(hunk).toLocaleString('en')}</span>}
                {hunk.lines.map((line, i) => {
                  const Element = ELEMENT[line.kind]
                  // The sign is drawn by CSS (data-sign), so copying the lines copies the file's text only.
                  return (
                    <Element key={i} className={`change-line ${line.kind}`} data-sign={SIGN[line.kind]}>
                      {line.kind === 'added' || line.kind === 'removed' ? changedText(line.text, words.get(i) ?? []) : line.text}
                    </Element>
                  )
                })}
              </span>
            )
          })}
        </pre>
      )}
      {preview.omitted > 0 && <p className="change-preview-note">{plural(preview.omitted, 'changed line is', 'changed lines are')} not shown.</p>}
    </div>
  )
}
