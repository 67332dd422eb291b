import type * as monaco from 'monaco-editor'

/** Options every read-only inspector editor shares (the benchmark's plain editor uses the same, minus folding). */
export const READ_ONLY_OPTIONS: monaco.editor.IStandaloneEditorConstructionOptions = {
  readOnly: true,
  domReadOnly: true,
  automaticLayout: true,
  fontFamily: "ui-monospace, 'SF Mono', Menlo, Consolas, monospace",
  fontSize: 12,
  lineHeight: 18,
  scrollBeyondLastLine: false,
  // A message's text is one JSON string, one line however long: it is read, not scrolled sideways to.
  wordWrap: 'on',
  minimap: { enabled: true, renderCharacters: false, maxColumn: 80, showMarkSectionHeaders: false, showRegionSectionHeaders: false },
  stickyScroll: { enabled: false },
  renderLineHighlight: 'none',
  occurrencesHighlight: 'off',
  selectionHighlight: false,
  links: false,
  contextmenu: true,
  // The pretty text is indented JSON: indentation folding gives exactly one region per object or array.
  folding: true,
  foldingStrategy: 'indentation',
  showFoldingControls: 'always',
  guides: { indentation: false },
  unicodeHighlight: { ambiguousCharacters: false, invisibleCharacters: false },
}
