import { useLayoutEffect, useRef } from 'react'
import type * as monaco from 'monaco-editor'
import type { Monaco } from '../../../monaco'
import { nameDiffParts } from '../../../monaco/diff-editor'
import { EDIT_OPTIONS, textOf } from './MarkdownEditor'

/**
 * The merge of a file changed on disk while it was being edited: the disk's version on the left (read-only), the
 * user's on the right, editable — what stands on the right when the user accepts is the merge.
 *
 * It takes the keyboard when it replaces the editor that had it: a change on disk seen while the user typed removes
 * that editor, and keystrokes typed on would otherwise go nowhere (or to the view's heading, where the focus fallback
 * puts a lost focus). So, when it appears, the keyboard goes to its editable side if it was on nothing (the editor
 * just removed) or on a control of the pane it sits in (the Save that met the conflict); a keyboard elsewhere (the
 * tree, a file opened as a merge) is left where it is.
 */
export function MergeEditor({ monaco: m, disk, mine, onChange }: { monaco: Monaco; disk: string; mine: string; onChange(text: string): void }) {
  const hostRef = useRef<HTMLDivElement>(null)
  const changeRef = useRef(onChange)
  changeRef.current = onChange
  // A layout effect: it runs in the commit that removed the editor, before the focus fallback looks (a frame later).
  useLayoutEffect(() => {
    const host = hostRef.current!
    const active = document.activeElement
    const keyboardWasHere = active === null || active === document.body || (host.closest('.files-editor-pane')?.contains(active) ?? false)
    const editor: monaco.editor.IStandaloneDiffEditor = m.editor.createDiffEditor(host, {
      ...EDIT_OPTIONS,
      originalEditable: false,
      renderSideBySide: true,
      // Monaco folds a diff narrower than 900 px into one column: the merge needs both, to copy from the disk's side.
      useInlineViewWhenSpaceIsLimited: false,
      ignoreTrimWhitespace: false,
      renderOverviewRuler: true,
      hideCursorInOverviewRuler: true,
      // Line numbers of up to three digits take the gutter they need, no more: the text keeps the width.
      lineNumbersMinChars: 3,
    })
    // Each side's name for a screen reader: Monaco takes the sides' names only after creation (monaco/diff-editor.ts).
    editor.getOriginalEditor().updateOptions({ ariaLabel: 'The file as it is on disk (read-only)' })
    editor.getModifiedEditor().updateOptions({ ariaLabel: 'Your version: edit it into the merge' })
    const stopNaming = nameDiffParts(editor)
    const original = m.editor.createModel(disk, 'markdown')
    const modified = m.editor.createModel(mine, 'markdown')
    editor.setModel({ original, modified })
    // With the byte-order mark the text came with (textOf): a merge saved without it would drop the file's.
    const sub = modified.onDidChangeContent(() => changeRef.current(textOf(modified)))
    if (keyboardWasHere) {
      const side = editor.getModifiedEditor()
      // Where the user was typing: the end of their text is where a merge usually goes on.
      side.setPosition(side.getModel()!.getFullModelRange().getEndPosition())
      side.focus()
    }
    return () => {
      sub.dispose()
      stopNaming()
      editor.dispose()
      original.dispose()
      modified.dispose()
    }
  }, [m, disk, mine])
  return <div ref={hostRef} className="view-editor merge-editor" data-testid="merge-editor" />
}
