/**
 * What `settings.get`, `settings.set` and `settings.setApiKey` answer: the app's settings, the project's compaction
 * settings, the model table (window and prices), the key's status (a hint only), and the folders in use.
 *
 * A key set or cleared here takes effect at the next pass: the model access chooses again (`reconnect`: the API
 * with the new key, or the simulator when there is none, as at start-up; node/model/connect.ts). Only a host that
 * fixed its endpoint has no `reconnect`; there a change waits for the next start and the view says so
 * (`restartNeeded`).
 */
import type { SecretStore } from '../model/keys'
import { MODELS, DEFAULT_MODEL_ID, findModel, isServed, modelProblem } from '../model/models'
import { dayWords, endOfLifeOf, lifeOf } from '../../../src-preload/models'
import { hintOf, keyProblem, keyStatus, type KeyStatus } from './api-key'
import { readProjectCompaction, writeProjectCompaction, type ProjectCompaction, type ProjectCompactionView } from './project'
import type { AppSettings } from './schema'
import type { SettingsStore } from './store'

export interface ModelRow {
  readonly id: string
  readonly label: string
  readonly contextWindow: number
  readonly maxOutputTokens: number
  readonly minCacheableTokens: number
  /** USD per million tokens. */
  readonly prices: { readonly input: number; readonly output: number; readonly cacheWrite5m: number; readonly cacheWrite1h: number; readonly cacheRead: number }
  readonly pricesEstimated: boolean
  /** The day (YYYY-MM-DD, UTC) the API stops serving the model; null for one with no end announced (decision 0065). */
  readonly endOfLife: string | null
}

export interface SettingsView {
  readonly app: AppSettings
  readonly problems: ReadonlyArray<string>
  readonly apiKey: KeyStatus & { readonly restartNeeded: boolean }
  readonly models: ReadonlyArray<ModelRow>
  /** The model new sessions start with (the setting, else LOUPE_MODEL or the default). */
  readonly effectiveModel: string
  /** Why new sessions do not start on the model chosen for them: it was retired since (decision 0065); else null. */
  readonly chosenModelRetired: string | null
  /** What answers now: the simulator or the API, and where (a loopback port, or the API's address). */
  readonly endpoint: { readonly kind: 'simulator' | 'anthropic'; readonly label: string; readonly baseUrl: string | null }
  readonly dataDir: string
  readonly loupeHome: string
  readonly project: (ProjectCompactionView & { readonly projectId: string }) | null
}

export interface SettingsServiceDeps {
  readonly store: SettingsStore
  readonly secrets: SecretStore
  readonly env: Readonly<Record<string, string | undefined>>
  /** Read at each call: it changes when the key does. */
  readonly endpoint: { readonly kind: 'simulator' | 'anthropic'; readonly label: string; readonly model: string; readonly client?: { readonly endpoint: { readonly baseUrl: string } } }
  readonly dataDir: string
  readonly loupeHome: string
  /** Chooses the model service again after the key changed; resolves true when what answers changed. */
  readonly reconnect?: () => Promise<boolean>
  /** The app's clock: a model past its end of life is no longer one new sessions start on (decision 0065). */
  readonly now?: () => number
}

export class SettingsValueError extends Error {}

export const MODEL_ROWS: ReadonlyArray<ModelRow> = MODELS.map((m) => ({
  id: m.id,
  label: m.label,
  contextWindow: m.contextWindow,
  maxOutputTokens: m.maxOutputTokens,
  minCacheableTokens: m.minCacheableTokens,
  prices: { input: m.prices.inputPerMTok, output: m.prices.outputPerMTok, cacheWrite5m: m.prices.cacheWrite5mPerMTok, cacheWrite1h: m.prices.cacheWrite1hPerMTok, cacheRead: m.prices.cacheReadPerMTok },
  pricesEstimated: m.prices.estimated,
  endOfLife: endOfLifeOf(m.id),
}))

export interface SessionPreferences {
  readonly staticCacheTtl1h: boolean
  readonly defaultMode: 'plan' | 'build' | 'auto'
  /** Send one cache pre-warm in an idle gap before the 5-minute entries expire. */
  readonly keepCacheWarm: boolean
  /** Adaptive thinking on the models that offer it. */
  readonly thinking: boolean
}

export class SettingsService {
  /** The key's status when the app started: the model client was chosen from it. */
  private readonly startKey: Promise<KeyStatus>

  constructor(private readonly deps: SettingsServiceDeps) {
    this.startKey = keyStatus(deps.secrets, deps.env)
  }

  /** What the sessions read from the settings: the static prefix's TTL (each pass) and the starting mode. */
  preferences(): SessionPreferences {
    const current = this.deps.store.current()
    return { staticCacheTtl1h: current.staticCacheTtl1h, defaultMode: current.defaultMode, keepCacheWarm: current.keepCacheWarm, thinking: current.thinking }
  }

  /** The model new sessions start with. */
  effectiveModel(): string {
    const now = this.now()
    const chosen = this.deps.store.current().model
    if (chosen && isServed(chosen, now)) return chosen
    return this.deps.endpoint.model && isServed(this.deps.endpoint.model, now) ? this.deps.endpoint.model : DEFAULT_MODEL_ID
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now()
  }

  /**
   * Why the model chosen for new sessions (in Settings, else by LOUPE_MODEL) is not the one they start on: it was
   * retired since it was chosen.
   */
  private chosenModelRetired(): string | null {
    const setting = this.deps.store.current().model
    const chosen = setting ?? this.deps.env.LOUPE_MODEL ?? null
    const life = chosen ? lifeOf(chosen, this.now()) : null
    if (!chosen || life?.state !== 'retired') return null
    const label = findModel(chosen)?.label ?? chosen
    const effective = this.effectiveModel()
    const instead = findModel(effective)?.label ?? effective
    const what = setting ? `The model chosen for new sessions, ${label},` : `LOUPE_MODEL names ${label}, which`
    return `${what} was retired on ${dayWords(life.endOfLife)}: the API no longer serves it, so new sessions start on ${instead} until another model is chosen.`
  }

  async view(project: { id: string; root: string } | null): Promise<SettingsView> {
    const [status, atStart] = await Promise.all([keyStatus(this.deps.secrets, this.deps.env), this.startKey])
    // Read after keyStatus, which reads the secret store: why it held no key, if something was there.
    const secretsProblem = this.deps.secrets.problem?.() ?? null
    const { endpoint } = this.deps
    return {
      app: this.deps.store.current(),
      problems: secretsProblem === null ? this.deps.store.problems() : [...this.deps.store.problems(), secretsProblem],
      apiKey: { ...status, restartNeeded: !this.deps.reconnect && (status.configured !== atStart.configured || status.hint !== atStart.hint) },
      models: MODEL_ROWS,
      effectiveModel: this.effectiveModel(),
      chosenModelRetired: this.chosenModelRetired(),
      endpoint: { kind: endpoint.kind, label: endpoint.label, baseUrl: endpoint.client?.endpoint.baseUrl ?? null },
      dataDir: this.deps.dataDir,
      loupeHome: this.deps.loupeHome,
      project: project ? { ...(await readProjectCompaction(project.root)), projectId: project.id } : null,
    }
  }

  async update(patch: Partial<AppSettings>, project: { id: string; root: string; compaction: ProjectCompaction } | null): Promise<SettingsView> {
    const unknown = patch.model === undefined || patch.model === null ? null : modelProblem(patch.model, this.now())
    if (unknown) throw new SettingsValueError(unknown)
    if (Object.keys(patch).length > 0) await this.deps.store.update(patch)
    if (project) await writeProjectCompaction(project.root, project.compaction)
    return this.view(project)
  }

  /**
   * Stores the key (or forgets it with null), points the next pass at what the key now says (the API, or the
   * simulator without a key), and answers with the key's hint only.
   */
  async setApiKey(key: string | null): Promise<KeyStatus & { readonly restartNeeded: boolean }> {
    const trimmed = key?.trim() ?? null
    if (trimmed !== null) {
      const problem = keyProblem(trimmed)
      if (problem) throw new SettingsValueError(problem)
    }
    await this.deps.secrets.set(trimmed)
    await this.deps.reconnect?.()
    const view = await this.view(null)
    // An environment key wins over a stored one; say which is in effect, never the key.
    if (trimmed !== null && view.apiKey.source === 'store' && view.apiKey.hint !== hintOf(trimmed)) throw new SettingsValueError('The key was stored but does not read back the same; try again')
    return view.apiKey
  }
}
