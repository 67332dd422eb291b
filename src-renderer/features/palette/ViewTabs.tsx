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
  return (
    <>
      <nav className="view-tabs" role="tablist" aria-label="Views" onKeyDown={onTablistKeyDown}>
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
