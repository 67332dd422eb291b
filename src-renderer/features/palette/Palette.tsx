/**
 * The command palette (Ctrl/Cmd-K): every action of the app, filtered as you type; Enter runs the highlighted one,
 * Esc closes. The palette's commands and the keyboard shortcuts are the same functions (commands.ts). The pointer
 * highlights a command only when it moves: one resting where the list opens does not change what Enter runs.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import type { FilesListingView } from '../../../src-preload/contract'
import { client } from '../../platform/client'
import { useFilesStore } from '../../state/files'
import { selectSelectedProject, useProjectsStore } from '../../state/projects'
import { useSettingsStore } from '../../state/settings'
import { focusViewHeading } from '../shell/focus-fallback'
import { buildCommands, filterCommands, keysLabel } from './commands'
import './views.css'

export function Palette() {
  const open = useSettingsStore((s) => s.paletteOpen)
  if (!open) return null
  return <PaletteDialog />
}

/**
 * The open project's instruction and memory files, for the palette's Edit commands: the Files view's listing when it
 * has one of this project (at once), read afresh as the palette opens (the view need not have been opened).
 */
function useProjectFiles(): FilesListingView | null {
  const [projectId] = useState(() => selectSelectedProject(useProjectsStore.getState())?.id ?? null)
  const [listing, setListing] = useState(() => (projectId !== null && useFilesStore.getState().projectId === projectId ? useFilesStore.getState().listing : null))
  useEffect(() => {
    if (projectId === null) return
    let open = true
    void client.request('files.list', { projectId }).then((result) => open && result.ok && setListing(result.value))
    return () => {
      open = false
    }
  }, [projectId])
  return listing
}

/**
 * The keyboard back where it was when the palette opened: on that element while it is still there (on nothing when
 * it was on nothing: a click on empty space); on the view's heading when that element went away or the view changed.
 */
function giveBack(returnTo: Element | null, viewChanged: boolean): void {
  const there = returnTo instanceof HTMLElement && returnTo !== document.body && returnTo.isConnected
  if (!viewChanged && there) returnTo.focus()
  else if (viewChanged || (returnTo !== document.body && returnTo !== null)) focusViewHeading()
}

function PaletteDialog() {
  const [query, setQuery] = useState('')
  const [index, setIndex] = useState(0)
  const input = useRef<HTMLInputElement>(null)
  const filesListing = useProjectFiles()
  const all = useMemo(() => buildCommands(filesListing), [filesListing])
  const shown = useMemo(() => filterCommands(all, query), [all, query])
  const close = () => useSettingsStore.getState().paletteClosed()

  useEffect(() => input.current?.focus(), [])
  // Closed without running a command (Esc, a click outside, Mod+K again), the palette gives the keyboard back where
  // it was when it opened. A command that ran decides where the keyboard goes (a field it opens, a view it shows).
  const [returnTo] = useState(() => document.activeElement)
  const commandRan = useRef(false)
  // A modal dialog keeps the keyboard: whatever takes focus behind it while it is open (an editor finishing its
  // load, a view's own autofocus) would otherwise swallow the typing and the Enter meant for the palette.
  useEffect(() => {
    const keep = (e: FocusEvent) => {
      if (e.target instanceof Element && !e.target.closest('.palette')) input.current?.focus()
    }
    document.addEventListener('focusin', keep)
    return () => {
      document.removeEventListener('focusin', keep)
      if (!commandRan.current) giveBack(returnTo, false)
    }
  }, [returnTo])
  useEffect(() => setIndex(0), [query])
  useEffect(() => {
    document.querySelector(`.palette li[aria-selected='true']`)?.scrollIntoView({ block: 'nearest' })
  }, [index])

  // Chromium sends a mousemove without any movement when the layout changes under a resting pointer; only a change
  // of position counts as the user pointing.
  const pointer = useRef<{ x: number; y: number } | null>(null)
  const pointerMoved = (e: MouseEvent) => {
    const last = pointer.current
    pointer.current = { x: e.clientX, y: e.clientY }
    return last !== null && (last.x !== e.clientX || last.y !== e.clientY)
  }

  const run = (i: number) => {
    const command = shown[i]
    if (!command) return
    commandRan.current = true
    const viewBefore = useSettingsStore.getState().view
    close()
    command.run()
    // Once the palette is gone and the command has rendered what it opens: a command that put the keyboard somewhere
    // (a field, an editor, a dialog) has the last word; else it goes to what the command opened, else back.
    requestAnimationFrame(() => {
      if (document.activeElement !== null && document.activeElement !== document.body) return
      const opened = command.focus?.() ?? null
      if (opened !== null) opened.focus()
      else giveBack(returnTo, useSettingsStore.getState().view !== viewBefore)
    })
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') setIndex((i) => Math.min(shown.length - 1, i + 1))
    else if (e.key === 'ArrowUp') setIndex((i) => Math.max(0, i - 1))
    else if (e.key === 'Enter') run(index)
    else if (e.key === 'Escape') close()
    // The input is the dialog's one stop (a combobox: the arrows choose): Tab would leave the dialog for the page.
    else if (e.key === 'Tab') {
      /* stays */
    } else return
    e.preventDefault()
    e.stopPropagation()
  }
  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Command palette"
        data-testid="palette"
        onKeyDown={(e) => {
          // Esc closes from anywhere in the dialog (the list, after a click in it), not only from the input.
          if (e.key !== 'Escape') return
          e.preventDefault()
          e.stopPropagation()
          close()
        }}
      >
        <input ref={input} role="combobox" aria-expanded="true" aria-controls="palette-list" aria-activedescendant={shown.length > 0 ? `palette-option-${index}` : undefined} aria-label="Type a command" placeholder="Type a command: compact, theme, edit CLAUDE.md, next pass…" value={query} onChange={(e) => setQuery(e.target.value)} onKeyDown={onKeyDown} />
        {shown.length === 0 ? (
          <p className="palette-empty">No command matches “{query}”.</p>
        ) : (
          // Not a Tab stop (a scrolling list would be one): the options are chosen from the input.
          <ul id="palette-list" role="listbox" tabIndex={-1}>
            {shown.map((c, i) => (
              <li key={c.id} id={`palette-option-${i}`} role="option" aria-selected={i === index} onMouseMove={(e) => pointerMoved(e) && i !== index && setIndex(i)} onClick={() => run(i)}>
                <span className="palette-group">{c.group}</span>
                <span className="palette-label">{c.label}</span>
                {c.keys && <span className="kbd">{keysLabel(c.keys)}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}
