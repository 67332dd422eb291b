/**
 * Settings (docs/inspector.md "Settings"): the API key (stored in the host's secret storage, shown again only as its
 * last four characters), the model new sessions start with (from the model table, with window and prices), the
 * project's compaction settings, the 1h TTL for the static prefix, the default permission mode, the theme, and the
 * folders.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { SettingsViewData } from '../../../src-preload/contract'
import { findModelIn, lifeAt, lifeWords } from '../../../src-preload/models'
import { useProjectsStore } from '../../state/projects'
import { useSettingsStore, type Theme } from '../../state/settings'
import { useSlow } from '../palette/use-slow'
import { grouped } from '../../ui/format'
import { chooseTheme, loadSettings, saveSettings, setApiKey } from './actions'
import { useModelDay } from '../chat/use-model-day'
import { changedFrom, checkDraft, differsFromSaved, draftOf, FIELD_LABELS, type CompactionDraft, type DraftField } from './compaction-form'
import './settings.css'
import { PathName } from '../../ui/Isolated'

/** 3 → "$3", 3.75 → "$3.75", 0.025 → "$0.025" (prices per million tokens, as published). */
/** A price per million tokens, in cents at least ("$0.30", "$15.00"), as prices are written. */
const usdPerM = (n: number) => `$${n.toFixed(n > 0 && n < 0.01 ? 3 : 2)}`
/** 1000000 → "1M", 200000 → "200k". */
const windowLabel = (tokens: number) => (tokens >= 1_000_000 ? `${tokens / 1_000_000}M` : `${Math.round(tokens / 1000)}k`)

export function SettingsView({ projectId, projectName }: { projectId: string | null; projectName: string | null }) {
  const data = useSettingsStore((s) => s.data)
  const loading = useSettingsStore((s) => s.loading)
  const error = useSettingsStore((s) => s.error)
  const saving = useSlow(useSettingsStore((s) => s.saving))
  // The theme shows the choice at once (the main process's copy follows).
  const theme = useSettingsStore((s) => s.theme)
  // A folder of Claude Code's logs or of the proxy's captures: no session of Loupe's compacts there, and Loupe writes
  // no .loupe/config.toml in it (the main process refuses it too).
  const holds = useProjectsStore((s) => (projectId ? (s.projects.find((p) => p.id === projectId)?.notWorkingFolder ?? null) : null))

  useEffect(() => {
    void loadSettings(projectId)
  }, [projectId])

  if (!data) {
    return (
      <div className="settings view-page" data-testid="settings-view">
        {error ? <p className="error" role="alert">{error}</p> : <p className="muted">{loading ? 'Reading the settings…' : ''}</p>}
      </div>
    )
  }
  return (
    <div className="settings view-page" data-testid="settings-view">
      <header className="view-head">
        <h1>Settings</h1>
        {saving && <span className="muted">Saving…</span>}
        {error && (
          <span className="error" role="alert">
            {error}
          </span>
        )}
      </header>
      {data.problems.length > 0 && (
        <p className="warn-box">
          {data.problems.join(' ')} Changing a setting here writes a clean file.
        </p>
      )}
      <ModelSection data={data} />
      <ApiKeySection data={data} />
      {/* Keyed by the project: what one project's form said ("Saved: …") and held is not shown under another. */}
      <CompactionSection key={data.project?.projectId ?? ''} data={data} projectId={projectId} projectName={projectName} holds={holds} />
      <section className="settings-group" aria-labelledby="set-sessions">
        <h2 id="set-sessions">Sessions and cache</h2>
        <label className="settings-row">
          <span>Default permission mode</span>
          <select aria-label="Default permission mode" value={data.app.defaultMode} onChange={(e) => void saveSettings({ app: { defaultMode: e.target.value as 'plan' | 'build' | 'auto' } })}>
            <option value="plan">plan (read-only)</option>
            <option value="build">build (ask before changes)</option>
            <option value="auto">auto (no questions)</option>
          </select>
          <small className="muted">New sessions start in this mode.</small>
        </label>
        <label className="settings-row check">
          <input type="checkbox" checked={data.app.staticCacheTtl1h} onChange={(e) => void saveSettings({ app: { staticCacheTtl1h: e.target.checked } })} aria-label="Cache the static prefix (tools and system rules) for 1 hour instead of 5 minutes" />
          <span>Cache the static prefix (tools and system rules) for 1 hour instead of 5 minutes</span>
          <small className="muted">A 1h write costs 2× the input price instead of 1.25×; it pays for itself when you pause longer than 5 minutes. The Cache view's what-if shows what it would have saved in a session.</small>
        </label>
        <label className="settings-row check">
          <input type="checkbox" checked={data.app.keepCacheWarm} onChange={(e) => void saveSettings({ app: { keepCacheWarm: e.target.checked } })} aria-label="Keep the cache warm through pauses" />
          <span>Keep the cache warm through pauses</span>
          <small className="muted">Shortly before the 5-minute cache would expire while the session waits for you, one request with no answer (a pre-warm) keeps the conversation cached for an hour: it costs about a tenth of the prefix, instead of 1.25× the whole prefix when you come back. Each pre-warm is listed as a keep_warm pass with its cost.</small>
        </label>
        <label className="settings-row check">
          <input type="checkbox" checked={data.app.thinking} onChange={(e) => void saveSettings({ app: { thinking: e.target.checked } })} aria-label="Let the model think before it answers" />
          <span>Let the model think before it answers</span>
          <small className="muted">Adaptive thinking on the models that offer it (Opus and Sonnet 4.6 and later, Haiku 5.5): the model decides how long to think. Thinking is billed as output and shown collapsed in the chat. Opus 5.5, Fable and Mythos always think, whatever this says. Haiku 5.5 drops earlier turns' thinking, so each new message there writes the previous turn to the cache again. Takes effect at the next pass; changing it re-bills the conversation once, as the cache is keyed on it.</small>
        </label>
      </section>
      <section className="settings-group" aria-labelledby="set-theme">
        <h2 id="set-theme">Appearance</h2>
        <div className="settings-row" role="radiogroup" aria-label="Theme">
          {(['light', 'dark', 'system'] as Theme[]).map((t) => (
            <label key={t} className="radio">
              <input type="radio" name="theme" value={t} checked={theme === t} onChange={() => void chooseTheme(t)} />
              {t === 'system' ? 'Follow the system' : t === 'light' ? 'Light' : 'Dark'}
            </label>
          ))}
        </div>
      </section>
      <section className="settings-group" aria-labelledby="set-folders">
        <h2 id="set-folders">Folders</h2>
        {/* Paths set apart (bdi) from the words after them: a direction override in a folder's name cannot reorder those. */}
        <dl className="settings-dl">
          <dt>Data folder</dt>
          <dd>
            <code data-testid="data-dir"><PathName path={data.dataDir} /></code> — the database, exports, settings, and backups of edited files (file-backups/).
          </dd>
          <dt>Loupe home</dt>
          <dd>
            <code><PathName path={data.loupeHome} /></code> — global instructions (AGENTS.md) and user memory (memory.md), read by every project.
          </dd>
        </dl>
      </section>
    </div>
  )
}

function ModelSection({ data }: { data: SettingsViewData }) {
  const chosen = data.app.model ?? ''
  // A dated id (`claude-sonnet-4-5-20250929`, decision 0054) is its model's entry, kept in the spelling stored.
  const chosenEntry = chosen ? findModelIn(chosen, data.models) : null
  const effective = findModelIn(data.effectiveModel, data.models)
  // Drawn again when one of the table's models reaches its end of life while Settings is open.
  const now = useModelDay(data.models.map((m) => m.endOfLife ?? null))
  // The host reads the day too (whether the stored choice still starts new sessions): asked again once it changes.
  const readAt = useRef(now)
  useEffect(() => {
    if (now === readAt.current) return
    readAt.current = now
    void loadSettings()
  }, [now])
  return (
    <section className="settings-group" aria-labelledby="set-model">
      <h2 id="set-model">Model</h2>
      <label className="settings-row">
        <span>New sessions use</span>
        <select aria-label="Model" value={chosen} onChange={(e) => void saveSettings({ app: { model: e.target.value || null } })}>
          <option value="">The app's default{data.app.model ? '' : ` (${effective?.label ?? data.effectiveModel})`}</option>
          {data.models.map((m) => {
            // A retired model is no choice (decision 0065): listed only as the choice stored before it retired.
            const life = lifeAt(m.endOfLife, now)
            if (life?.state === 'retired' && m.id !== chosenEntry?.id) return null
            return (
              <option key={m.id} value={m.id === chosenEntry?.id ? chosen : m.id} disabled={life?.state === 'retired'}>
                {m.label}
                {life ? ` (${lifeWords(life)})` : ''} · {windowLabel(m.contextWindow)} window · {usdPerM(m.prices.input)} / {usdPerM(m.prices.output)} per MTok
              </option>
            )
          })}
        </select>
        <small className="muted">A session keeps the model it started with until it is switched in the chat's header, which prices the switch first: the cache is kept per model.</small>
      </label>
      {data.chosenModelRetired && (
        <p className="warn-box" data-testid="model-retired">
          {data.chosenModelRetired}
        </p>
      )}
      {effective && (
        <table className="settings-prices" aria-label="Prices of the chosen model">
          <thead>
            <tr>
              <th>{effective.label}</th>
              <th>input</th>
              <th>cache write 5m</th>
              <th>cache write 1h</th>
              <th>cache read</th>
              <th>output</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                {windowLabel(effective.contextWindow)} window, {grouped(effective.maxOutputTokens)} max output, cache from {grouped(effective.minCacheableTokens)} tokens
              </td>
              <td>{usdPerM(effective.prices.input)}</td>
              <td>{usdPerM(effective.prices.cacheWrite5m)}</td>
              <td>{usdPerM(effective.prices.cacheWrite1h)}</td>
              <td>{usdPerM(effective.prices.cacheRead)}</td>
              <td>{usdPerM(effective.prices.output)}</td>
            </tr>
          </tbody>
          <caption className="muted">USD per million tokens{effective.pricesEstimated ? ' (estimated: not confirmed by the provider)' : ''}.</caption>
        </table>
      )}
    </section>
  )
}

function ApiKeySection({ data }: { data: SettingsViewData }) {
  const [key, setKey] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const status = data.apiKey
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const failure = await setApiKey(key)
    setProblem(failure)
    if (!failure) setKey('')
  }
  return (
    <section className="settings-group" aria-labelledby="set-key">
      <h2 id="set-key">Anthropic API key</h2>
      <p className="settings-text" data-testid="key-status">
        {status.configured ? (
          <>
            A key ending in <code>{status.hint}</code> is set {status.source === 'env' ? 'by ANTHROPIC_API_KEY (it wins over a stored key)' : "in this computer's secret storage"}.
          </>
        ) : (
          <>No key is set: {data.endpoint.kind === 'simulator' ? 'the offline simulator answers.' : 'the API cannot be reached.'}</>
        )}
        {status.restartNeeded && <strong className="warn"> Restart Loupe to use the new key.</strong>}
      </p>
      <p className="settings-text settings-endpoint" data-testid="endpoint-in-use" data-kind={data.endpoint.kind}>
        <span className={`model-badge ${data.endpoint.kind}`}>{data.endpoint.kind === 'simulator' ? 'Simulator' : 'API'}</span> Now answering: <strong>{data.endpoint.label}</strong>
        {data.endpoint.baseUrl && (
          <>
            {' '}
            at <code>{data.endpoint.baseUrl}</code>
          </>
        )}
        .{' '}
        <span className="muted">
          {data.endpoint.kind === 'simulator'
            ? 'Offline: nothing leaves this computer, and nothing is billed.'
            : 'Requests are billed to the key’s account.'}
        </span>
      </p>
      <form className="settings-inline" onSubmit={(e) => void submit(e)}>
        <input type="password" autoComplete="off" spellCheck={false} placeholder="sk-ant-…" aria-label="API key" value={key} onChange={(e) => setKey(e.target.value)} />
        <button type="submit" className="primary" disabled={key.trim() === ''}>
          Save key
        </button>
        {status.configured && status.source === 'store' && (
          <button type="button" onClick={() => void setApiKey(null).then(setProblem)}>
            Forget the key
          </button>
        )}
      </form>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <small className="muted">
        A new key is used from the next request on, without a restart; a request already on its way finishes with the key it started with. Forgetting the key goes back to the offline simulator. The key is kept in the host's secret storage and handed only to the model client; it is never shown again, logged or recorded.
      </small>
    </section>
  )
}

/** `holds`: what the project's folder holds when it is not a working folder; its compaction is then not offered. */
function CompactionSection({ data, projectId, projectName, holds }: { data: SettingsViewData; projectId: string | null; projectName: string | null; holds: string | null }) {
  const project = data.project
  // The project's name is its folder's: set apart (bdi) from the heading's words, which right-to-left letters in it cannot reorder.
  const named = projectName === null ? 'this project' : <bdi>{projectName}</bdi>
  // What the user typed, as text until it is saved (compaction-form.ts checks it against the main process's limits).
  const [draft, setDraft] = useState<CompactionDraft | null>(() => (project ? draftOf(project) : null))
  // Said once saved, until the form changes again: a button that only greys out says nothing.
  const [savedNote, setSavedNote] = useState(false)
  // Saved values that change (this form saved, or the file changed) replace the draft; another setting saved (the
  // theme, say) brings the same values back and leaves what is being typed alone.
  const saved = project ? `${project.projectId} ${project.auto} ${project.threshold} ${project.target} ${project.keepSteps}` : null
  useEffect(() => {
    if (project) setDraft(draftOf(project))
    // (`saved` stands for the project's values: the effect runs when they change, not when the object does.)
  }, [saved])
  if (holds) {
    return (
      <section className="settings-group" aria-labelledby="set-compaction">
        <h2 id="set-compaction">Compaction in {named}</h2>
        <p className="muted" data-testid="compaction-not-offered">
          This folder holds {holds}, not a project&apos;s files: no Loupe session runs here to compact, and Loupe writes no settings in it. Open the project&apos;s own folder to set when its sessions compact.
        </p>
      </section>
    )
  }
  // Another project picked: until its settings answer, the form would show the last one's values under its name.
  if (projectId !== null && project && project.projectId !== projectId) {
    return (
      <section className="settings-group" aria-labelledby="set-compaction">
        <h2 id="set-compaction">Compaction in {named}</h2>
        <p className="muted">Reading its settings…</p>
      </section>
    )
  }
  if (!project || !draft) {
    return (
      <section className="settings-group" aria-labelledby="set-compaction">
        <h2 id="set-compaction">Compaction</h2>
        <p className="muted">Open a project to set when its sessions compact.</p>
      </section>
    )
  }
  const { values, problems } = checkDraft(draft, project)
  const changed = changedFrom(project, values)
  // The visible label is the accessible name too, unit and all: the problem shown inside the label is not part of it.
  const field = (name: DraftField, limits: { min: number; max: number; step: number | 'any' }) => (
    <label>
      {FIELD_LABELS[name]}
      <input
        type="number"
        inputMode="decimal"
        {...limits}
        aria-label={FIELD_LABELS[name]}
        aria-invalid={problems[name] ? true : undefined}
        aria-describedby={problems[name] ? `compaction-${name}-problem` : undefined}
        value={draft[name]}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      />
      {problems[name] && (
        <small className="field-problem" id={`compaction-${name}-problem`}>
          {problems[name]}
        </small>
      )}
    </label>
  )
  return (
    <section className="settings-group" aria-labelledby="set-compaction">
      <h2 id="set-compaction">Compaction in {named}</h2>
      <form
        className="settings-grid"
        // The fields are checked here, with messages beside them; the browser's own bubbles would only repeat them.
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          if (values && changed) void saveSettings({ project: { projectId: project.projectId, compaction: values } }).then((ok) => setSavedNote(ok))
        }}
      >
        <label className="check">
          <input type="checkbox" checked={draft.auto} onChange={(e) => setDraft({ ...draft, auto: e.target.checked })} /> Compact automatically
        </label>
        {field('threshold', { min: 1, max: 99, step: 'any' })}
        {field('target', { min: 1, max: 99, step: 'any' })}
        {field('keepSteps', { min: 1, max: 100, step: 1 })}
        <div className="settings-inline">
          <button type="submit" className="primary" disabled={!changed}>
            Save compaction settings
          </button>
          {!values && <span className="error">Correct the {Object.keys(problems).length === 1 ? 'field' : 'fields'} above to save.</span>}
          {savedNote && !differsFromSaved(project, values) && (
            <span className="muted" role="status" data-testid="compaction-saved">
              Saved: sessions in this project compact by these settings from their next pass.
            </span>
          )}
        </div>
      </form>
      <small className="muted">
        Kept in <code><PathName path={project.configPath} /></code> in the project (the next pass reads it; commit it to share it). Other settings in that file are left as written.
      </small>
      {project.problems.length > 0 && <p className="warn-box">{project.problems.join(' ')}</p>}
    </section>
  )
}

