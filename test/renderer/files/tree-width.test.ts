/** The Files view's list gives way to the open file in a narrow view, and has the user's width again with the room. */
import { describe, expect, it } from 'vitest'
import { EDITOR_MIN_PX, TREE_SPLITTER_PX, treeWidthLimit, treeWidthShown } from '../../../src-renderer/features/files/tree-width'
import { TREE_MIN_PX } from '../../../src-renderer/state/files'

describe('the file list beside the open file', () => {
  it("is the user's width where the view has room for it and the open file", () => {
    expect(treeWidthShown(320, 1030)).toBe(320)
    expect(treeWidthShown(320, null)).toBe(320)
  })

  it('gives way in a narrow view, so the open file keeps its least width', () => {
    const view = 640
    expect(treeWidthShown(320, view)).toBe(view - TREE_SPLITTER_PX - EDITOR_MIN_PX)
    expect(view - TREE_SPLITTER_PX - treeWidthShown(320, view)).toBe(EDITOR_MIN_PX)
  })

  it('never below its own least width, however narrow the view', () => {
    expect(treeWidthShown(320, 400)).toBe(TREE_MIN_PX)
    expect(treeWidthLimit(400)).toBe(TREE_MIN_PX)
  })
})
