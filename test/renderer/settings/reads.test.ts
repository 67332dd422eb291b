/**
 * Settings reads overlap: a project picked while a save's echo ("settings.changed") is on its way starts one read for
 * the new project while the echo starts another. Under Node, with the contract's client replaced by one whose answers
 * the test releases in any order: the settings shown are always those of the project last asked for.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { answerHeld, held, heldListeners, settle } from '../../support/held-client'


vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)
// The theme touches the document, which Node has not.
vi.mock('../../../src-renderer/features/settings/theme', () => ({ applyTheme: () => {} }))

const { loadSettings, saveSettings } = await import('../../../src-renderer/features/settings/actions')
const { connectSettingsEvents } = await import('../../../src-renderer/features/settings/events')
const { useSettingsStore } = await import('../../../src-renderer/state/settings')

/** What settings.get / settings.set answer for a project whose threshold is `threshold`. */
const settingsOf = (projectId: string | null, threshold = 0.8) => ({
  app: { theme: 'system' },
  problems: [],
  project: projectId === null ? null : { projectId, auto: true, threshold, target: 0.5, keepSteps: 2, configPath: '.loupe/config.toml', problems: [] },
})

/** Answers the oldest held request named `name` for `projectId` (settings.get's input names it directly, settings.set's within its `project`). */
function answer(name: string, projectId: string | null, value: unknown): void {
  answerHeld(name, (input) => (input.projectId ?? (input.project as { projectId?: string } | undefined)?.projectId ?? null) === projectId, value)
}

const shownProject = () => useSettingsStore.getState().data?.project?.projectId ?? null

beforeEach(() => {
  held.length = 0
  useSettingsStore.setState({ data: null, loading: false, saving: false, error: null })
})

describe('settings reads', () => {
  it('shows the project last asked for when an older read answers after it', async () => {
    void loadSettings('b')
    void loadSettings('a')
    answer('settings.get', 'a', settingsOf('a'))
    await settle()
    answer('settings.get', 'b', settingsOf('b', 0.85))
    await settle()
    expect(shownProject()).toBe('a')
    expect(useSettingsStore.getState().loading).toBe(false)
  })

  it("reads the newly picked project when a save's echo for the one left arrives before its answer", async () => {
    connectSettingsEvents()
    void loadSettings('b')
    answer('settings.get', 'b', settingsOf('b'))
    await settle()
    const saved = saveSettings({ project: { projectId: 'b', compaction: { auto: true, threshold: 0.85, target: 0.5, keepSteps: 2 } } })
    answer('settings.set', 'b', settingsOf('b', 0.85))
    expect(await saved).toBe(true)
    expect(useSettingsStore.getState().data?.project?.threshold).toBe(0.85)
    // Project a is picked; the echo of b's save arrives while a's read is on its way. It reads nothing for b.
    void loadSettings('a')
    heldListeners.get('settings.changed')!({ projectId: 'b' })
    expect(held.map((r) => r.input.projectId ?? null)).toEqual(['a'])
    answer('settings.get', 'a', settingsOf('a'))
    await settle()
    expect(shownProject()).toBe('a')
    expect(useSettingsStore.getState().data?.project?.threshold).toBe(0.8)
  })

  it("reads the picked project again when a save made in the one left answers after it was picked", async () => {
    void loadSettings('b')
    answer('settings.get', 'b', settingsOf('b'))
    await settle()
    const saved = saveSettings({ project: { projectId: 'b', compaction: { auto: true, threshold: 0.85, target: 0.5, keepSteps: 2 } } })
    void loadSettings('a')
    answer('settings.get', 'a', settingsOf('a'))
    await settle()
    answer('settings.set', 'b', settingsOf('b', 0.85))
    await settle()
    // The save's answer is b's; a is shown, so a is read again rather than b's values put under a's name.
    answer('settings.get', 'a', settingsOf('a'))
    expect(await saved).toBe(true)
    expect(shownProject()).toBe('a')
  })

  it("takes a theme save's answer, which carries no project, by reading the shown project again", async () => {
    void loadSettings('a')
    answer('settings.get', 'a', settingsOf('a'))
    await settle()
    const saved = saveSettings({ app: { theme: 'dark' } })
    answer('settings.set', null, { ...settingsOf(null), app: { theme: 'dark' } })
    await settle()
    answer('settings.get', 'a', { ...settingsOf('a'), app: { theme: 'dark' } })
    expect(await saved).toBe(true)
    expect(shownProject()).toBe('a')
  })
})
