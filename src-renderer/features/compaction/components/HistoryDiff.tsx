import { useEffect, useRef, useState } from 'react'
import type * as monaco from 'monaco-editor'
import type { Monaco } from '../../../monaco'
import { setDiffTexts, useDiffEditor } from '../../../monaco/diff-editor'
import type { HistoryText, Mark } from '../model/history-text'

/**
 * The gutter between the line numbers and the text: a marked message's bar at its left, the diff's + / − sign (11 px)
 * past it, and 6 px of room between the sign and the text (compaction.css), on every line a wrapped header takes.
 */
const DECORATIONS_PX = 22

const MARK_CLASS: Readonly<Record<Mark, string>> = {
  summarised: 'cmp-line-summarised',
  trimmed: 'cmp-line-trimmed',
  summary: 'cmp-line-summary',
  kept: '',
}

/**
 * The history the model saw before a compaction (left) and after it (right), in Monaco's diff editor, with the
 * summarised messages, the trimmed tool results and the summary head shaded.
 */
export function HistoryDiff({ monaco: m, before, after, pairKey }: { monaco: Monaco; before: HistoryText; after: HistoryText; pairKey: string }) {
  const hostRef = useRef<HTMLDivElement>(null)
  const editorRef = useDiffEditor(m, hostRef, {
    originalAriaLabel: 'What the model saw before the compaction',
    ariaLabel: 'What the model sees after the compaction',
    wordWrap: 'on',
    diffWordWrap: 'on',
    hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 8, revealLineCount: 20 },
    lineDecorationsWidth: DECORATIONS_PX,
  })
  const [ready, setReady] = useState<string | null>(null)

  useEffect(() => {
    const editor = editorRef.current
    if (!editor) return
    setReady(null)
    const computing = setDiffTexts(m, editor, before.text, after.text, 'plaintext')
    const decorate = (side: monaco.editor.ICodeEditor, text: HistoryText) =>
      side.createDecorationsCollection(
        text.ranges.map((r) => ({ range: new m.Range(r.startLine, 1, r.endLine, 1), options: { isWholeLine: true, className: MARK_CLASS[r.mark], linesDecorationsClassName: `${MARK_CLASS[r.mark]}-gutter` } })),
      )
    const left = decorate(editor.getOriginalEditor(), before)
    const right = decorate(editor.getModifiedEditor(), after)
    const sub = editor.onDidUpdateDiff(() => setReady(pairKey))
    // The same texts as shown: the diff on screen is already theirs.
    if (!computing) setReady(pairKey)
    return () => {
      sub.dispose()
      left.clear()
      right.clear()
    }
  }, [m, before, after, pairKey])

  // The after side's length: what changes when a dry run's summary is edited (the editor draws only what is in view).
  return <div ref={hostRef} className="view-editor cmp-diff" data-testid="history-diff" data-diff-ready={ready ?? undefined} data-after-length={after.text.length} />
}
