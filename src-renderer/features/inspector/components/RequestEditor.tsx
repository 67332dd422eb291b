/**
 * The request's text in a read-only Monaco editor: the pretty-printed body with a header above each block and a
 * rule at each cache breakpoint, blocks shaded "from cache" up to the last read and "paid" after; or the raw bytes.
 *
 * One editor lives for the life of the view; a new pass swaps in a new model, so opening a pass costs the model
 * and its decorations, not an editor.
 */
import { useImperativeHandle, useLayoutEffect, useRef, type Ref } from 'react'
import type * as monaco from 'monaco-editor'
import { afterPaint, type Monaco } from '../../../monaco'
import type { PassView } from '../data/pass-view'
import type { PrettyMarker } from '../model/pretty'
import { rawMarkerRanges, type RawRange } from '../model/raw-markers'
import { READ_ONLY_OPTIONS } from '../../../monaco/options'
import { blockHeader, breakpointRule, readSplitRule, type Shade } from './zones'
import type { RequestMode } from '../../../state/inspector'

export interface RequestEditorHandle {
  revealBlock(ordinal: number): void
  revealLine(line: number): void
  /** The bytes where a breakpoint's prefix ends: the rule under its object (Pretty), its `cache_control` (Raw). */
  revealBreakpoint(marker: PrettyMarker): void
  foldBlocks(): void
  unfoldAll(): void
}

interface Props {
  readonly monaco: Monaco
  readonly view: PassView
  readonly mode: RequestMode
  onReady(passId: string): void
  onFile(path: string): void
  readonly handle: Ref<RequestEditorHandle>
}

const HEADER_PX = 22
const RULE_PX = 24

export function RequestEditor({ monaco: m, view, mode, onReady, onFile, handle }: Props) {
  const hostRef = useRef<HTMLDivElement>(null)
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null)
  const zonesRef = useRef<string[]>([])
  const decorationsRef = useRef<monaco.editor.IEditorDecorationsCollection | null>(null)
  const callbacks = useRef({ onReady, onFile })
  // Where the raw bytes' cache_control members are, scanned on the first chip clicked in the Raw view.
  const rawRanges = useRef<{ text: string; ranges: ReadonlyMap<string, RawRange> } | null>(null)
  callbacks.current = { onReady, onFile }

  useLayoutEffect(() => {
    const editor = m.editor.create(hostRef.current!, { ...READ_ONLY_OPTIONS, model: null, ariaLabel: 'The request’s bytes' })
    editorRef.current = editor
    decorationsRef.current = editor.createDecorationsCollection()
    return () => {
      editor.getModel()?.dispose()
      editor.dispose()
      editorRef.current = null
    }
  }, [m])

  // A layout effect: the new text goes in before the browser paints, not a frame after.
  useLayoutEffect(() => {
    const editor = editorRef.current
    if (!editor) return
    let alive = true
    const pretty = mode === 'pretty' ? view.pretty : null
    const previous = editor.getModel()
    const model = m.editor.createModel(pretty ? pretty.text : view.detail.requestBody, 'json')
    editor.updateOptions({ folding: pretty !== null })
    editor.setModel(model)
    previous?.dispose()

    const cachedThrough = view.breakpoints.cachedThroughOrdinal
    const known = view.detail.usage !== null
    const shadeOf = (ordinal: number): Shade => (!known ? 'unknown' : ordinal <= cachedThrough ? 'cached' : 'paid')
    const decorations: monaco.editor.IModelDeltaDecoration[] = []
    editor.changeViewZones((zones) => {
      for (const id of zonesRef.current) zones.removeZone(id)
      zonesRef.current = []
      if (!pretty) return
      const lines = new Map(pretty.blocks.map((b) => [b.path, b]))
      for (const block of view.blocks) {
        const at = lines.get(block.path)
        if (!at) continue
        const shade = shadeOf(block.ordinal)
        // A request has hundreds of blocks and a screen shows a few: each header is built when Monaco first
        // places it (onDomNodeTop), not up front.
        const domNode = document.createElement('div')
        domNode.dataset.block = block.path
        let built = false
        zonesRef.current.push(
          zones.addZone({
            afterLineNumber: at.startLine - 1,
            heightInPx: HEADER_PX,
            domNode,
            // Monaco reports a zone off screen at about -1e6 px.
            onDomNodeTop: (top) => {
              if (built || top < -100_000) return
              built = true
              domNode.append(blockHeader(block, shade, (f) => callbacks.current.onFile(f)))
            },
          }),
        )
        if (shade !== 'unknown')
          decorations.push({
            range: new m.Range(at.startLine, 1, at.endLine, 1),
            options: { isWholeLine: true, className: `insp-line-${shade}`, linesDecorationsClassName: `insp-gutter-${shade}` },
          })
      }
      // Where the read ended: at the last breakpoint read, or past it, at an entry an earlier pass wrote that the
      // lookback found (a retry, a pre-warm) — then the split gets a line of its own after that block.
      const lastRead = view.breakpoints.marks.filter((k) => k.outcome === 'read').at(-1)
      const splitOnMark = lastRead !== undefined && lastRead.ordinal === cachedThrough
      for (const mark of view.breakpoints.marks) {
        zonesRef.current.push(
          zones.addZone({ afterLineNumber: mark.marker.endLine, heightInPx: RULE_PX, showInHiddenAreas: true, ordinal: 1, domNode: breakpointRule(mark, splitOnMark && mark === lastRead) }),
        )
      }
      const splitBlock = splitOnMark || cachedThrough < 0 ? undefined : view.blocks.find((b) => b.ordinal === cachedThrough)
      const splitAt = splitBlock && lines.get(splitBlock.path)
      if (splitAt) zonesRef.current.push(zones.addZone({ afterLineNumber: splitAt.endLine, heightInPx: RULE_PX, showInHiddenAreas: true, ordinal: 2, domNode: readSplitRule() }))
    })
    decorationsRef.current?.set(decorations)
    editor.setScrollTop(0)
    void afterPaint().then(() => alive && callbacks.current.onReady(view.detail.id))
    return () => {
      alive = false
    }
  }, [m, view, mode])

  useImperativeHandle(handle, () => {
    const revealLine = (line: number) => {
      const editor = editorRef.current
      if (!editor) return
      editor.revealLineNearTop(line, m.editor.ScrollType.Smooth)
      editor.setPosition({ lineNumber: line, column: 1 })
    }
    return {
      revealBlock(ordinal) {
        const block = view.blocks.find((b) => b.ordinal === ordinal)
        const at = block && view.pretty?.blocks.find((b) => b.path === block.path)
        if (at) revealLine(at.startLine)
      },
      revealLine,
      revealBreakpoint(marker) {
        const editor = editorRef.current
        const model = editor?.getModel()
        if (!editor || !model) return
        if (mode === 'pretty' && view.pretty) return revealLine(marker.endLine)
        // The raw body is one line: the pretty text's line numbers mean nothing in it. Its bytes are scanned for the
        // marked object's own cache_control member, which is selected and brought to the middle of the view, the
        // bytes of the block it closes above it.
        const text = view.detail.requestBody
        if (rawRanges.current?.text !== text) rawRanges.current = { text, ranges: rawMarkerRanges(text) }
        const range = rawRanges.current.ranges.get(marker.path)
        if (!range) return
        const start = model.getPositionAt(range.start)
        const end = model.getPositionAt(range.end)
        const selection = new m.Selection(start.lineNumber, start.column, end.lineNumber, end.column)
        editor.setSelection(selection)
        editor.revealRangeInCenter(selection, m.editor.ScrollType.Smooth)
      },
      foldBlocks() {
        void editorRef.current?.getAction('editor.foldLevel3')?.run()
      },
      unfoldAll() {
        void editorRef.current?.getAction('editor.unfoldAll')?.run()
      },
    }
  }, [m, view, mode])

  return <div ref={hostRef} className="insp-editor" data-testid="request-editor" />
}
