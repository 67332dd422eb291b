import { useEffect, useRef, useState } from 'react'
import type * as monaco from 'monaco-editor'
import type { Monaco } from '../../../monaco'
import { READ_ONLY_OPTIONS } from '../../../monaco/options'
import type { HistoryText, Mark } from '../model/history-text'

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
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null)
  const [ready, setReady] = useState<string | null>(null)

  useEffect(() => {
    const editor = m.editor.createDiffEditor(hostRef.current!, {
      ...READ_ONLY_OPTIONS,
      minimap: { enabled: false },
      wordWrap: 'on',
      diffWordWrap: 'on',
      renderSideBySide: true,
      useInlineViewWhenSpaceIsLimited: true,
      renderSideBySideInlineBreakpoint: 700,
      hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 8, revealLineCount: 20 },
      ignoreTrimWhitespace: false,
      originalEditable: false,
      renderOverviewRuler: true,
    })
    editorRef.current = editor
    return () => {
      const models = editor.getModel()
      editor.dispose()
      models?.original.dispose()
      models?.modified.dispose()
      editorRef.current = null
    }
  }, [m])

  useEffect(() => {
    const editor = editorRef.current
    if (!editor) return
    setReady(null)
    const previous = editor.getModel()
    editor.setModel({ original: m.editor.createModel(before.text, 'plaintext'), modified: m.editor.createModel(after.text, 'plaintext') })
    previous?.original.dispose()
    previous?.modified.dispose()
    const decorate = (side: monaco.editor.ICodeEditor, text: HistoryText) =>
      side.createDecorationsCollection(
        text.ranges.map((r) => ({ range: new m.Range(r.startLine, 1, r.endLine, 1), options: { isWholeLine: true, className: MARK_CLASS[r.mark], linesDecorationsClassName: `${MARK_CLASS[r.mark]}-gutter` } })),
      )
    const left = decorate(editor.getOriginalEditor(), before)
    const right = decorate(editor.getModifiedEditor(), after)
    const sub = editor.onDidUpdateDiff(() => setReady(pairKey))
    return () => {
      sub.dispose()
      left.clear()
      right.clear()
    }
  }, [m, before, after, pairKey])

  return <div ref={hostRef} className="view-editor cmp-diff" data-testid="history-diff" data-diff-ready={ready ?? undefined} />
}
