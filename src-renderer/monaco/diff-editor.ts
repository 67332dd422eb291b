/**
 * The read-only Monaco diff editor the inspector's pass diff and the compaction view's history diff share: created
 * once per component, its text models replaced as the compared pair changes and disposed with what replaced them.
 */
import { useEffect, useRef, type RefObject } from 'react'
import type * as monaco from 'monaco-editor'
import type { Monaco } from './index'
import { READ_ONLY_OPTIONS } from './options'

/** What every read-only diff shares: side by side where there is room, whitespace counted, the overview ruler on. */
export const READ_ONLY_DIFF_OPTIONS: monaco.editor.IStandaloneDiffEditorConstructionOptions = {
  ...READ_ONLY_OPTIONS,
  minimap: { enabled: false },
  renderSideBySide: true,
  useInlineViewWhenSpaceIsLimited: true,
  renderSideBySideInlineBreakpoint: 700,
  ignoreTrimWhitespace: false,
  originalEditable: false,
  renderOverviewRuler: true,
}

/** A diff editor in `host` for as long as the component lives (and `m` stays the same); null before it is made. */
export function useDiffEditor(m: Monaco, host: RefObject<HTMLDivElement | null>, options: monaco.editor.IStandaloneDiffEditorConstructionOptions): RefObject<monaco.editor.IStandaloneDiffEditor | null> {
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null)
  useEffect(() => {
    const editor = m.editor.createDiffEditor(host.current!, { ...READ_ONLY_DIFF_OPTIONS, ...options })
    editorRef.current = editor
    return () => {
      const models = editor.getModel()
      editor.dispose()
      editorRef.current = null
      // As in setDiffTexts: a diff computation still waiting on the worker is let go of in a timeout of Monaco's;
      // models disposed before it make it throw "no diff result available".
      if (models) setTimeout(() => {
        models.original.dispose()
        models.modified.dispose()
      }, 0)
    }
    // The options are fixed for the component's life; a new Monaco instance is the only reason to make it again.
  }, [m])
  return editorRef
}

/** Shows `original` against `modified`, disposing the models they replace once the editor has let go of them. */
export function setDiffTexts(m: Monaco, editor: monaco.editor.IStandaloneDiffEditor, original: string, modified: string, language: string): void {
  const previous = editor.getModel()
  editor.setModel({ original: m.editor.createModel(original, language), modified: m.editor.createModel(modified, language) })
  if (previous === null) return
  // The diff editor releases the replaced pair's diff computation in a timeout of its own (diffEditorWidget
  // setDiffModel), which is what cancels it. Disposed before then, a computation still waiting on the worker finds its
  // models gone and throws "no diff result available"; this timeout is queued after Monaco's, so it runs after it.
  setTimeout(() => {
    previous.original.dispose()
    previous.modified.dispose()
  }, 0)
}
