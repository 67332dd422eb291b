/**
 * What the Compaction view's detail pane shows. The editor (Monaco, several megabytes, loaded on first use) matters
 * only to a card that is open: with none open (an empty session, a dry run just discarded) the pane says what will
 * show there, whether or not the editor has loaded, rather than that something is loading.
 */
export type DetailPane = 'draft' | 'checkpoint' | 'loading' | 'empty'

export function detailPane(editorLoaded: boolean, open: { draft: boolean; checkpoint: boolean }): DetailPane {
  if (!open.draft && !open.checkpoint) return 'empty'
  if (!editorLoaded) return 'loading'
  return open.draft ? 'draft' : 'checkpoint'
}
