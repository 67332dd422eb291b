import { useEffect, useRef } from 'react'
import { MAIN_VIEWS, useSettingsStore, type MainView } from '../../state/settings'
import { keysLabel, viewBlocked } from './commands'
import { onTablistKeyDown, tabStop } from '../../ui/tablist'
import './views.css'

/** The main views, in the top bar: Chat, Compaction, Cache, Files, Settings; and the palette's shortcut. */
export function ViewTabs({ hasProject, hasSession }: { hasProject: boolean; hasSession: boolean }) {
  const view = useSettingsStore((s) => s.view)
  const needs = (id: MainView): string | null => viewBlocked(id, { hasProject, hasSession })
  // The list's Tab stop: the selected view's tab, or the first one that can be chosen when that one cannot.
  const stop = needs(view) === null ? view : (MAIN_VIEWS.find((v) => needs(v.id) === null)?.id ?? view)
  // A view chosen another way (Alt+1–5, the palette) while a tab has the keyboard: the keyboard goes to the tab of
  // the view shown, or the ring would stay on a tab that is no longer the one selected (and no longer the Tab stop).
  const list = useRef<HTMLElement>(null)
  useEffect(() => {
    const focused = document.activeElement
    if (!(focused instanceof HTMLElement) || !list.current?.contains(focused) || focused.getAttribute('aria-selected') === 'true') return
    list.current.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]:not(:disabled)')?.focus()
  }, [view])
  return (
    <>
      <nav ref={list} className="view-tabs" role="tablist" aria-label="Views" onKeyDown={onTablistKeyDown}>
        {MAIN_VIEWS.map((v) => {
          const blocked = needs(v.id)
          return (
            <button key={v.id} type="button" role="tab" aria-selected={view === v.id} tabIndex={tabStop(stop === v.id)} disabled={blocked !== null} title={blocked ?? `${v.label} (${keysLabel(`Alt+${v.key}`)})`} onClick={() => useSettingsStore.getState().viewChosen(v.id)}>
              {v.label}
            </button>
          )
        })}
      </nav>
      <button type="button" className="palette-hint" onClick={() => useSettingsStore.getState().paletteOpened()} title="Every action, by name">
        {keysLabel('Mod+K')} commands
      </button>
    </>
  )
}
