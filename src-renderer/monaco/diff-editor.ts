/**
 * The read-only Monaco diff editor the inspector's pass diff and the compaction view's history diff share: created
 * once per component, with a new pair of text models for each pair compared.
 */
import { useEffect, useRef, type RefObject } from 'react'
import type * as monaco from 'monaco-editor'
import type { Monaco } from './index'
import { READ_ONLY_OPTIONS } from './options'

/** The view model each editor was given, to be disposed with it (see useDiffEditor). */
const viewModels = new WeakMap<monaco.editor.IStandaloneDiffEditor, monaco.editor.IDiffEditorViewModel>()

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
  // Each side's scrollbar would carry a dark tick for a cursor nobody places in a diff that is only read.
  hideCursorInOverviewRuler: true,
}

/**
 * Names, for a screen reader, what Monaco's diff editor leaves unnamed, and hides what only the pointer uses (Chromium's
 * accessibility tree, read in the compaction, inspector and merge diffs):
 * - the hidden-lines bar's "Show Unchanged Region" is a link-button whose name would come from its icon (none): it
 *   gets its tooltip as its name;
 * - the bar's drag handles (mouse-only, the same action as that button), the moved-blocks drawing and the overview
 *   ruler's canvases are pictures of what the text says: hidden.
 * The bars are made again for every diff and every region shown, so they are watched for as they are added. Returns
 * what stops the watching.
 */
export function nameDiffParts(editor: monaco.editor.IStandaloneDiffEditor): () => void {
  const root = editor.getContainerDomNode()
  const name = (within: ParentNode) => {
    for (const button of within.querySelectorAll<HTMLElement>('.diff-hidden-lines a.default-control')) if (!button.hasAttribute('aria-label')) button.setAttribute('aria-label', button.title || 'Show Unchanged Region')
    for (const part of within.querySelectorAll<Element>('.diff-hidden-lines .top, .diff-hidden-lines .bottom, svg.moved-blocks-lines, .diffOverview')) part.setAttribute('aria-hidden', 'true')
  }
  name(root)
  // Only what is added is looked at: Monaco redraws lines on every scroll, and a look over the whole editor each time
  // would cost the scroll.
  const watch = new MutationObserver((records) => {
    const bars = new Set<Element>()
    for (const record of records) for (const node of record.addedNodes) if (node instanceof Element && (node.matches('.diff-hidden-lines') || node.querySelector('.diff-hidden-lines'))) bars.add(node)
    // The selectors match inside the node as added: its ancestors count for them.
    for (const node of bars) name(node)
  })
  watch.observe(root, { childList: true, subtree: true })
  return () => watch.disconnect()
}

/** A diff editor in `host` for as long as the component lives (and `m` stays the same); null before it is made. */
export function useDiffEditor(m: Monaco, host: RefObject<HTMLDivElement | null>, options: monaco.editor.IStandaloneDiffEditorConstructionOptions): RefObject<monaco.editor.IStandaloneDiffEditor | null> {
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null)
  useEffect(() => {
    const editor = m.editor.createDiffEditor(host.current!, { ...READ_ONLY_DIFF_OPTIONS, ...options })
    // Each side's name for a screen reader: given at creation, Monaco leaves the sides' edit contexts unnamed
    // (aria-label ""); set on each side afterwards, it names them.
    const original = options.originalAriaLabel
    const modified = options.modifiedAriaLabel ?? options.ariaLabel
    if (original) editor.getOriginalEditor().updateOptions({ ariaLabel: original })
    if (modified) editor.getModifiedEditor().updateOptions({ ariaLabel: modified })
    // In a narrow pane the diff is shown inline: the original side keeps only its line numbers, no text, yet would
    // still take the keyboard, an invisible Tab stop. It is inert while it shows no text.
    const originalSide = editor.getOriginalEditor()
    const followLayout = () => originalSide.getContainerDomNode().toggleAttribute('inert', originalSide.getLayoutInfo().contentWidth <= 0)
    followLayout()
    const layoutWatch = originalSide.onDidLayoutChange(followLayout)
    const stopNaming = nameDiffParts(editor)
    editorRef.current = editor
    return () => {
      layoutWatch.dispose()
      stopNaming()
      const models = editor.getModel()
      editor.dispose()
      editorRef.current = null
      // The view model is ours (setDiffTexts made it): disposing it cancels a diff computation still waiting on the
      // worker, which would otherwise come back to disposed models and throw "no diff result available". The
      // editor does not dispose a view model it was given.
      viewModels.get(editor)?.dispose()
      viewModels.delete(editor)
      models?.original.dispose()
      models?.modified.dispose()
    }
    // The options are fixed for the component's life; a new Monaco instance is the only reason to make it again.
  }, [m])
  return editorRef
}

/**
 * Shows `original` against `modified`. Each new pair gets new models and a new view model; the old view model is
 * disposed before its models, which cancels a diff computation it still waits on (one that came back to disposed
 * models would throw "no diff result available"). Texts replaced in place instead would leave the view model's last
 * diff applied to the new line counts while the next one is computed, which Monaco's unchanged-region folding
 * rejects ("startLineNumber … cannot be after endLineNumberExclusive …"). False when both texts were already shown:
 * no new diff is computed, so no `onDidUpdateDiff` follows.
 */
export function setDiffTexts(m: Monaco, editor: monaco.editor.IStandaloneDiffEditor, original: string, modified: string, language: string): boolean {
  const current = editor.getModel()
  if (current && current.original.getValue() === original && current.modified.getValue() === modified && current.original.getLanguageId() === language) return false
  const viewModel = editor.createViewModel({ original: m.editor.createModel(original, language), modified: m.editor.createModel(modified, language) })
  const previous = viewModels.get(editor)
  viewModels.set(editor, viewModel)
  editor.setModel(viewModel)
  previous?.dispose()
  current?.original.dispose()
  current?.modified.dispose()
  return true
}
