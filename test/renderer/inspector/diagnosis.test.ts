import { describe, expect, it } from 'vitest'
import { diagnosisOf } from '../../../src-renderer/features/inspector/model/diagnosis'

describe('diagnosisOf', () => {
  it("says the API's answer and the app's own side by side, agreeing", () => {
    expect(diagnosisOf({ diagnostics: { api: { type: 'model_changed', cache_missed_input_tokens: 2611 }, ours: 'model_changed', disagree: false } })).toEqual({
      api: 'model changed · 2,611 tokens of the previous prompt from there on',
      ours: 'model changed',
      agree: true,
    })
    expect(diagnosisOf({ diagnostics: { api: null, ours: null, disagree: false } })).toEqual({ api: 'no change since the previous response', ours: 'no change since the previous pass', agree: true })
  })
  it('flags a disagreement, and the API’s "unavailable" names what it stands for', () => {
    expect(diagnosisOf({ diagnostics: { api: { type: 'system_changed', cache_missed_input_tokens: 10 }, ours: 'tools_changed', disagree: true } })).toMatchObject({ ours: 'tools changed', agree: false })
    expect(diagnosisOf({ diagnostics: { api: { type: 'unavailable' }, ours: 'settings_changed', disagree: false } })).toMatchObject({ api: 'unavailable (request settings changed)', agree: true })
  })
  it('is nothing to compare on a first pass, and absent when the API was not asked or nothing is stored', () => {
    expect(diagnosisOf({ diagnostics: { api: { type: 'previous_message_not_found' }, ours: 'no_previous', disagree: false } })).toEqual({ api: 'previous response not found', ours: 'no previous pass to compare with', agree: null })
    expect(diagnosisOf({ diagnostics: { api: 'not_asked', ours: null, disagree: false } })).toBeNull()
    expect(diagnosisOf(null)).toBeNull()
    expect(diagnosisOf('legacy text')).toBeNull()
  })
})
