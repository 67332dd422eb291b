/**
 * How wide the Files view's file list is drawn. The user's width (dragged, remembered in state/files.ts) is kept
 * while the view has room for it; in a narrow view (a laptop's window, the sidebar open) the list gives way, down to
 * its least width, so the open file's column keeps room for lines of text and the edit's price. The user's width
 * comes back when the window grows, as the inspector's does beside the chat.
 */
import { useState, type RefObject } from 'react'
import { useResized } from '../../ui/resize'
import { TREE_MIN_PX } from '../../state/files'

/** The open file's column: about 35 characters of the editor a line beside its line numbers, and the price's figures
 * a few words a line. */
export const EDITOR_MIN_PX = 360
/** The drag handle between the list and the open file (views.css `.splitter-v`). */
export const TREE_SPLITTER_PX = 5

/** The widest the list may be drawn in a view `viewWidth` wide: never under its least width. */
export function treeWidthLimit(viewWidth: number): number {
  return Math.max(TREE_MIN_PX, viewWidth - TREE_SPLITTER_PX - EDITOR_MIN_PX)
}

/** The list's width as drawn: the user's, unless the view is too narrow for it beside the open file. */
export function treeWidthShown(chosen: number, viewWidth: number | null): number {
  return viewWidth === null ? chosen : Math.min(chosen, treeWidthLimit(viewWidth))
}

/** The width of the element `ref` holds, following the window and the sidebar; null until it is measured. */
export function useWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null)
  useResized(ref, (element) => setWidth(element.clientWidth))
  return width
}
