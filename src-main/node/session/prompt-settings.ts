/**
 * What every pass of a Loupe session offers the model and how its static rules are set: the tools (`compact`
 * included: the compaction layer answers it, compaction-hook.ts) and the features the static rules describe. One
 * place, so the replay harnesses (node/replay, node/compaction/real-compactions.ts) send what the app sends.
 */
import { WIRE_TOOLS } from '../../engine/tools/specs'

export const OFFERED_TOOLS = WIRE_TOOLS

/** One object for every pass, so the builder can reuse its planned system blocks (it memoises by identity). */
const FEATURES = { sandbox: false, hooks: false, todo: true, skills: true } as const
const PROMPT_SETTINGS = { features: FEATURES, staticCacheTtl1h: false } as const
const PROMPT_SETTINGS_TTL_1H = { features: FEATURES, staticCacheTtl1h: true } as const

/** The prompt settings of a pass, with or without the 1h TTL on the static prefix (the app's setting). */
export function promptSettings(staticCacheTtl1h: boolean): typeof PROMPT_SETTINGS | typeof PROMPT_SETTINGS_TTL_1H {
  return staticCacheTtl1h ? PROMPT_SETTINGS_TTL_1H : PROMPT_SETTINGS
}

/** Whether the session block lists the project's skills (the app always does). */
export const LISTS_SKILLS = FEATURES.skills
