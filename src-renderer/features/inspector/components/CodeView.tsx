import { useEffect, useRef } from 'react'
import type * as monaco from 'monaco-editor'
import type { Monaco } from '../../../monaco'
import { READ_ONLY_OPTIONS } from '../../../monaco/options'

/** A plain read-only editor for a text (a raw response stream, a JSON body). */
export function CodeView({ monaco: m, text, language, label }: { monaco: Monaco; text: string; language: string; label: string }) {
  const hostRef = useRef<HTMLDivElement>(null)
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null)
  useEffect(() => {
    const editor = m.editor.create(hostRef.current!, { ...READ_ONLY_OPTIONS, model: null, minimap: { enabled: false }, ariaLabel: label })
    editorRef.current = editor
    return () => {
      editor.getModel()?.dispose()
      editor.dispose()
    }
  }, [m, label])
  useEffect(() => {
    const editor = editorRef.current
    if (!editor) return
    const previous = editor.getModel()
    editor.setModel(m.editor.createModel(text, language))
    previous?.dispose()
  }, [m, text, language])
  return <div ref={hostRef} className="insp-editor insp-code" />
}
