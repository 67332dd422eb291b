/** The chat header's model choice for a session whose model is not an id of the app's list as spelled there (decision 0056). */
import { describe, expect, it } from 'vitest'
import { MODEL_NAMES } from '../../../src-preload/models'
import { modelOptions, switchTargets } from '../../../src-renderer/features/chat/model-choice'

describe("the model choice's options", () => {
  it('are the app’s models, the session’s chosen, for a model of the list', () => {
    const options = modelOptions('claude-sonnet-4-6')
    expect(options.map((o) => o.value)).toEqual(MODEL_NAMES.map((m) => m.id))
    expect(options.filter((o) => o.current)).toEqual([{ value: 'claude-sonnet-4-6', label: 'Claude Sonnet 4.6', current: true, choosable: true }])
    expect(switchTargets('claude-sonnet-4-6').map((o) => o.value)).not.toContain('claude-sonnet-4-6')
  })

  it('show a dated id as its model, chosen and spelled as the session spells it, with no undated twin to switch to', () => {
    const options = modelOptions('claude-sonnet-4-5-20250929')
    expect(options).toHaveLength(MODEL_NAMES.length)
    expect(options.filter((o) => o.current)).toEqual([{ value: 'claude-sonnet-4-5-20250929', label: 'Claude Sonnet 4.5', current: true, choosable: true }])
    expect(options.map((o) => o.value)).not.toContain('claude-sonnet-4-5')
    // In the list's place: the choice reads in the order it always does.
    expect(options.map((o) => o.label)).toEqual(MODEL_NAMES.map((m) => m.label))
    const targets = switchTargets('claude-sonnet-4-5-20250929').map((o) => o.value)
    expect(targets).toHaveLength(MODEL_NAMES.length - 1)
    expect(targets.some((v) => v.startsWith('claude-sonnet-4-5'))).toBe(false)
  })

  it('show a model the app does not know first, as the current one and not choosable, with every model of the list to switch to', () => {
    const options = modelOptions('claude-retired-3')
    expect(options[0]).toEqual({ value: 'claude-retired-3', label: "\u2068claude-retired-3\u2069 (not in Loupe's list)", current: true, choosable: false })
    expect(options.slice(1).map((o) => o.value)).toEqual(MODEL_NAMES.map((m) => m.id))
    expect(switchTargets('claude-retired-3').map((o) => o.value)).toEqual(MODEL_NAMES.map((m) => m.id))
  })

  it('keep a name read from the disk from turning the words after it around', () => {
    // A right-to-left override in a stored id ends at the isolate's end, not at the end of the option's text.
    const label = modelOptions('claude-\u202eterces')[0]!.label
    expect(label.startsWith('\u2068claude-\u202eterces\u2069 ')).toBe(true)
  })

  it('offer nothing to switch to before the session’s model is read', () => {
    expect(switchTargets('')).toEqual([])
  })
})
