import { useEffect, useLayoutEffect, useRef } from 'react'
import type * as monaco from 'monaco-editor'
import type { Monaco } from '../../../monaco'
import { BOM, editorChange } from './changed-span'

/** Options of the editable Markdown editors (instruction and memory files, a compaction summary). */
export const EDIT_OPTIONS: monaco.editor.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  fontFamily: "ui-monospace, 'SF Mono', Menlo, Consolas, monospace",
  fontSize: 13,
  lineHeight: 20,
  wordWrap: 'on',
  // Tab moves the keyboard on to the next control (Save, Apply …), as everywhere else in the app; Ctrl+M switches
  // the editor to typing tabs, Monaco's own toggle, named in the editor's label.
  tabFocusMode: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  stickyScroll: { enabled: false },
  unicodeHighlight: { ambiguousCharacters: false },
  quickSuggestions: false,
  renderWhitespace: 'trailing',
}

/**
 * The editor's whole text, a file's byte-order mark included: Monaco takes a leading U+FEFF off the text it is given
 * and gives it back only when asked, and a text without it would save the file without the mark the user did not touch.
 */
export function textOf(model: monaco.editor.ITextModel): string {
  return model.getValue(undefined, true)
}

/** The byte-order mark the model holds aside from its text ('' when none). */
function bomOf(model: monaco.editor.ITextModel): string {
  return model.getValueLength(undefined, true) > model.getValueLength() ? BOM : ''
}

/**
 * An editable Markdown editor. `value` is what the editor should hold: when it changes from outside (a file opened,
 * a merge taken) the editor takes it; what the user types goes out through `onChange`. `onSave` runs on Ctrl/Cmd-S.
 */
/** `takeFocus`: the editor takes the keyboard (a file just made, to be written in), then says so through `onFocused`. */
export function MarkdownEditor({
  monaco: m,
  value,
  onChange,
  onSave,
  label,
  testId,
  takeFocus = false,
  onFocused,
  readOnly = false,
}: {
  monaco: Monaco
  value: string
  onChange(text: string): void
  onSave?(): void
  label: string
  testId?: string
  takeFocus?: boolean
  onFocused?(): void
  /** Shown, not edited: a file in a folder Loupe writes nothing in. */
  readOnly?: boolean
}) {
  const hostRef = useRef<HTMLDivElement>(null)
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null)
  const handlers = useRef({ onChange, onSave })
  handlers.current = { onChange, onSave }
  // The last text the editor itself reported: a `value` equal to it is the echo of typing, not a change from outside
  // (setting it back would move the cursor while the user types faster than React renders).
  const emitted = useRef(value)

  useEffect(() => {
    const editor = m.editor.create(hostRef.current!, { ...EDIT_OPTIONS, model: m.editor.createModel(value, 'markdown'), ariaLabel: `${label} (Tab moves on; Ctrl+M to type a tab)` })
    editorRef.current = editor
    const sub = editor.onDidChangeModelContent(() => {
      emitted.current = textOf(editor.getModel()!)
      handlers.current.onChange(emitted.current)
    })
    editor.addCommand(m.KeyMod.CtrlCmd | m.KeyCode.KeyS, () => handlers.current.onSave?.())
    return () => {
      sub.dispose()
      editor.getModel()?.dispose()
      editor.dispose()
      editorRef.current = null
    }
    // The editor is made once per Monaco instance; later values arrive through the effect below.
  }, [m, label])

  useEffect(() => {
    editorRef.current?.updateOptions({ readOnly })
  }, [readOnly])

  useEffect(() => {
    if (!takeFocus || !editorRef.current) return
    editorRef.current.focus()
    onFocused?.()
  }, [takeFocus, onFocused])

  // A layout effect runs in the same task as the render it belongs to, so no keystroke can land between the render
  // and this comparison (a passive effect could run after the next keystroke and set an older text back).
  // A text from outside (Revert) is put in as an edit of the span that differs, one step of the undo stack: Ctrl+Z
  // brings back what it replaced (decision 0046). Replacing the value would empty the stack. A read-only editor takes
  // no edits, and there is nothing to undo: its value is replaced.
  useLayoutEffect(() => {
    const editor = editorRef.current
    const model = editor?.getModel()
    if (!editor || !model || value === emitted.current) return
    emitted.current = value
    if (editor.getOption(m.editor.EditorOption.readOnly)) return editor.setValue(value)
    const span = editorChange(bomOf(model), model.getValue(), value)
    if (!span) return
    // A text without the byte-order mark the editor holds (the mark removed on disk, and the disk's text taken) cannot
    // be made by an edit: it is set whole, and the undo stack starts again.
    if (span === 'replace') return editor.setValue(value)
    const start = model.getPositionAt(span.start)
    const end = model.getPositionAt(span.end)
    editor.pushUndoStop()
    editor.executeEdits('loupe', [{ range: new m.Range(start.lineNumber, start.column, end.lineNumber, end.column), text: span.text, forceMoveMarkers: true }])
    editor.pushUndoStop()
  }, [m, value])

  return <div ref={hostRef} className="view-editor md-editor" data-testid={testId} />
}
