import { useEffect, useRef } from 'react'
import type * as monaco from 'monaco-editor'
import type { Monaco } from '../../../monaco'
import { EDIT_OPTIONS } from './MarkdownEditor'

/**
 * The merge of a file changed on disk while it was being edited: the disk's version on the left (read-only), the
 * user's on the right, editable — what stands on the right when the user accepts is the merge.
 */
export function MergeEditor({ monaco: m, disk, mine, onChange }: { monaco: Monaco; disk: string; mine: string; onChange(text: string): void }) {
  const hostRef = useRef<HTMLDivElement>(null)
  const changeRef = useRef(onChange)
  changeRef.current = onChange
  useEffect(() => {
    const editor: monaco.editor.IStandaloneDiffEditor = m.editor.createDiffEditor(hostRef.current!, {
      ...EDIT_OPTIONS,
      originalEditable: false,
      renderSideBySide: true,
      // Monaco folds a diff narrower than 900 px into one column: the merge needs both, to copy from the disk's side.
      useInlineViewWhenSpaceIsLimited: false,
      ignoreTrimWhitespace: false,
      renderOverviewRuler: true,
    })
    const original = m.editor.createModel(disk, 'markdown')
    const modified = m.editor.createModel(mine, 'markdown')
    editor.setModel({ original, modified })
    const sub = modified.onDidChangeContent(() => changeRef.current(modified.getValue()))
    return () => {
      sub.dispose()
      editor.dispose()
      original.dispose()
      modified.dispose()
    }
  }, [m, disk, mine])
  return <div ref={hostRef} className="view-editor merge-editor" data-testid="merge-editor" />
}
