/**
 * The chat header's model choice for a session whose model is not an id of the app's list as spelled there (decision
 * 0056), or one past its end of life (decision 0065). Every case names its day: which models are retired depends on it.
 */
import { describe, expect, it } from 'vitest'
import { MODEL_NAMES } from '../../../src-preload/models'
import { modelChoiceTitle, modelOptions, retiredModelNote, switchTargets } from '../../../src-renderer/features/chat/model-choice'

/** A day before any end of life of the list: every model is served. */
const BEFORE = Date.parse('2026-06-01T12:00:00Z')
/** Sonnet 4.5 retired (30 Nov 2026), Opus 4.5 still served until 22 Jan 2027. */
const AFTER = Date.parse('2026-12-03T09:00:00Z')
const ids = MODEL_NAMES.map((m) => m.id)
const served = ids.filter((id) => id !== 'claude-sonnet-4-5')

describe("the model choice's options", () => {
  it('are the app’s models, the session’s chosen, for a model of the list', () => {
    const options = modelOptions('claude-sonnet-4-6', BEFORE)
    expect(options.map((o) => o.value)).toEqual(ids)
    expect(options.filter((o) => o.current)).toEqual([{ value: 'claude-sonnet-4-6', label: 'Claude Sonnet 4.6', current: true, choosable: true }])
    expect(switchTargets('claude-sonnet-4-6', BEFORE).map((o) => o.value)).not.toContain('claude-sonnet-4-6')
  })

  it('show a dated id as its model, chosen and spelled as the session spells it, with no undated twin to switch to', () => {
    const options = modelOptions('claude-haiku-4-5-20251001', BEFORE)
    expect(options).toHaveLength(MODEL_NAMES.length)
    expect(options.filter((o) => o.current)).toEqual([{ value: 'claude-haiku-4-5-20251001', label: 'Claude Haiku 4.5', current: true, choosable: true }])
    expect(options.map((o) => o.value)).not.toContain('claude-haiku-4-5')
    // In the list's place: the choice reads in the order it always does.
    expect(options.map((o) => o.value)).toEqual(ids.map((id) => (id === 'claude-haiku-4-5' ? 'claude-haiku-4-5-20251001' : id)))
    const targets = switchTargets('claude-haiku-4-5-20251001', BEFORE).map((o) => o.value)
    expect(targets).toHaveLength(MODEL_NAMES.length - 1)
    expect(targets.some((v) => v.startsWith('claude-haiku-4-5'))).toBe(false)
  })

  it('show a model the app does not know first, as the current one and not choosable, with every served model of the list to switch to', () => {
    const options = modelOptions('claude-retired-3', AFTER)
    expect(options[0]).toEqual({ value: 'claude-retired-3', label: "\u2068claude-retired-3\u2069 (not in Loupe's list)", current: true, choosable: false })
    expect(options.slice(1).map((o) => o.value)).toEqual(served)
    expect(switchTargets('claude-retired-3', AFTER).map((o) => o.value)).toEqual(served)
    expect(modelChoiceTitle('claude-retired-3', AFTER)).toMatch(/is not one Loupe knows/)
  })

  it('name a model with an end of life ahead by its date, and leave a retired one out but as the session’s own', () => {
    const options = modelOptions('claude-sonnet-4-6', AFTER)
    expect(options.map((o) => o.value)).toEqual(served)
    expect(options.find((o) => o.value === 'claude-opus-4-5')).toEqual({ value: 'claude-opus-4-5', label: 'Claude Opus 4.5 (retires 22 Jan 2027)', current: false, choosable: true })
    // The day before the end of life it is still a choice; from that day (UTC) on it is not.
    expect(switchTargets('claude-sonnet-4-6', Date.parse('2026-11-29T23:59:59Z')).map((o) => o.value)).toContain('claude-sonnet-4-5')
    expect(switchTargets('claude-sonnet-4-6', Date.parse('2026-11-30T00:00:00Z')).map((o) => o.value)).not.toContain('claude-sonnet-4-5')
  })

  it('show a session on a retired model its model, named retired and not to be chosen back, with a tooltip that says to switch', () => {
    const options = modelOptions('claude-sonnet-4-5-20250929', AFTER)
    expect(options.filter((o) => o.current)).toEqual([{ value: 'claude-sonnet-4-5-20250929', label: 'Claude Sonnet 4.5 (retired 30 Nov 2026)', current: true, choosable: false }])
    expect(options).toHaveLength(MODEL_NAMES.length)
    expect(switchTargets('claude-sonnet-4-5-20250929', AFTER).map((o) => o.value)).toEqual(served)
    expect(modelChoiceTitle('claude-sonnet-4-5-20250929', AFTER)).toBe(
      "This session's model, claude-sonnet-4-5-20250929, was retired 30 Nov 2026: the API no longer serves it, so its next pass would be refused. Switch to another model",
    )
    expect(modelChoiceTitle('claude-opus-4-5', AFTER)).toBe("This session's model: claude-opus-4-5. The API stops serving it on 22 Jan 2027: switch before then")
    expect(modelChoiceTitle('claude-sonnet-4-6', AFTER)).toBe("This session's model: claude-sonnet-4-6")
  })

  it('come with a line above the message box for a session on a retired model, and for no other', () => {
    expect(retiredModelNote('claude-sonnet-4-5-20250929', AFTER, false)).toBe(
      "This session's model, Claude Sonnet 4.5, was retired on 30 Nov 2026: the Anthropic API no longer serves it. Switch to another model in the header above; the switch is priced first.",
    )
    expect(retiredModelNote('claude-sonnet-4-5', AFTER, true)).toMatch(/no longer serves it \(the offline simulator still answers it\)\. Switch/)
    for (const [model, now] of [['claude-sonnet-4-5', BEFORE], ['claude-opus-4-5', AFTER], ['claude-sonnet-4-6', AFTER], ['claude-retired-3', AFTER], ['', AFTER]] as const) {
      expect(retiredModelNote(model, now, false)).toBeNull()
    }
  })

  it('keep a name read from the disk from turning the words after it around', () => {
    // A right-to-left override in a stored id ends at the isolate's end, not at the end of the option's text.
    const label = modelOptions('claude-\u202eterces', AFTER)[0]!.label
    expect(label.startsWith('\u2068claude-\u202eterces\u2069 ')).toBe(true)
  })

  it('offer nothing to switch to before the session’s model is read', () => {
    expect(switchTargets('', AFTER)).toEqual([])
  })
})
