/**
 * Every action of the app as a command: the palette (Ctrl/Cmd-K) lists them, and the keyboard shortcuts run the
 * same functions. Built from the stores when asked, so a command is offered only where it can run.
 */
import { useChatStore } from '../../state/chat'
import { useCompactionStore } from '../../state/compaction'
import { useDraftsStore } from '../../state/drafts'
import { useFilesStore } from '../../state/files'
import { selectInspectorHidden, useInspectorStore, type InspectorView } from '../../state/inspector'
import { selectSelectedProject, useProjectsStore } from '../../state/projects'
import { useSessionsStore } from '../../state/sessions'
import { MAIN_VIEWS, useSettingsStore, type MainView } from '../../state/settings'
import { loadSession, stopTurn, takeBackMessage } from '../chat/actions'
import { takeBackable, takeBacks } from '../chat/take-back'
import { focusMessageBox } from '../chat/focus'
import { askModelSwitch } from '../chat/model-switch-request'
import { switchTargets } from '../chat/model-choice'
import { cancelCompaction, compactNow } from '../compaction/actions'
import { fileEditorTarget, openFile, startNewFile } from '../files/actions'
import type { FileNodeView, FilesListingView } from '../../../src-preload/contract'
import { refreshProjects, removeProject, selectProject } from '../projects/actions'
import { createSession } from '../sessions/actions'
import { showInspector, toggleInspector } from '../inspector/reveal'
import { goToTargets } from './go-to'
import { fieldTarget, focusWhenShown } from '../../ui/focus-when-shown'
import { chooseTheme } from '../settings/actions'

export interface Command {
  readonly id: string
  readonly group: string
  readonly label: string
  /** The shortcut, as shown ("Alt+1", "Mod+K"). */
  readonly keys?: string
  run(): void
  /**
   * Where the keyboard goes after the command when it put it nowhere itself (the palette's field is gone): what the
   * command opened. Without it, it goes back where it was, or to the heading of a view the command switched to.
   */
  focus?(): HTMLElement | null
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
export function keysLabel(keys: string): string {
  return keys.replace('Mod', isMac ? '⌘' : 'Ctrl').replace('Alt', isMac ? '⌥' : 'Alt')
}

/** Why a view cannot open yet, or null: Compaction and Cache need a session, Files a project. */
export function viewBlocked(view: MainView, open: { readonly hasProject: boolean; readonly hasSession: boolean }): string | null {
  if ((view === 'compaction' || view === 'cache') && !open.hasSession) return 'Open a session first'
  if (view === 'files' && !open.hasProject) return 'Open a project first'
  return null
}

/** What is open now, as the shell tells it (AppShell): a project, and a session of that project. */
function openNow(): { hasProject: boolean; hasSession: boolean } {
  const project = selectSelectedProject(useProjectsStore.getState())
  const sessions = useSessionsStore.getState()
  return { hasProject: project !== null, hasSession: project !== null && (sessions.byProject[project.id] ?? []).some((x) => x.id === sessions.selectedId) }
}

/** Shows a view; one that cannot open yet (its tab is disabled) is not shown. */
export function showView(view: MainView): void {
  if (viewBlocked(view, openNow()) !== null) return
  useSettingsStore.getState().viewChosen(view)
}

/**
 * Focuses a field of the view just shown (the compaction focus field, the API key box) in the same task as the
 * command, or when it appears, with what was typed meanwhile: no key typed after the command is lost.
 */
function focusField(selector: string): void {
  focusWhenShown(fieldTarget(selector))
}

/**
 * Starts a session and shows it ready for a message: the chat view, the keyboard in its box. When the open session
 * is already one nothing has happened in (a new session not yet written to), that one is shown instead: asking twice
 * for a new session does not leave a trail of empty ones with the same name.
 */
export async function startSession(projectId: string): Promise<void> {
  const open = useSessionsStore.getState().selectedId
  // A session just made may not have its chat read yet (the read is under way): read it, rather than take a session
  // whose entries are not known yet for one in use, and make a second empty one.
  if (open && isNewByItsRow(projectId, open) && !useChatStore.getState().bySession[open]?.loaded) {
    await loadSession(open)
    // Something else was chosen meanwhile (another session, another project): that choice stands, and no session is
    // made over it.
    if (useSessionsStore.getState().selectedId !== open || useProjectsStore.getState().selectedId !== projectId) return
  }
  if (!(open && isUntouched(projectId, open)) && !(await createSession(projectId))) {
    // Refused: perhaps the folder went away since the projects were listed; the sidebar then says so (decision 0022).
    void refreshProjects()
    return
  }
  showView('chat')
  focusMessageBox()
}

/**
 * A session of this project with nothing in it: never renamed (a name given is a session meant for something), loaded
 * with no entries, no turn running, nothing typed in its box.
 */
function isUntouched(projectId: string, sessionId: string): boolean {
  if (!isNewByItsRow(projectId, sessionId)) return false
  const chat = useChatStore.getState().bySession[sessionId]
  if (!chat?.loaded || chat.entries.length > 0 || chat.running || chat.streaming.length > 0 || chat.approvals.length > 0) return false
  return (useDraftsStore.getState().bySession[sessionId] ?? '') === ''
}

/** What the sessions list knows of a session: one of this project's, made in Loupe, never renamed or written to. */
function isNewByItsRow(projectId: string, sessionId: string): boolean {
  const session = (useSessionsStore.getState().byProject[projectId] ?? []).find((s) => s.id === sessionId)
  return !!session && (session.origin ?? 'loupe') === 'loupe' && !session.continued && session.updatedAt === session.createdAt
}

export function stepPass(delta: number): void {
  const s = useInspectorStore.getState()
  if (s.passes.length === 0) return
  const index = s.passes.findIndex((p) => p.id === s.selectedPassId)
  const next = Math.min(s.passes.length - 1, Math.max(0, (index < 0 ? s.passes.length : index) + delta))
  s.passSelected(s.passes[next]!.id)
}

export function openCompactNow(): void {
  showView('compaction')
  focusField('#compaction-focus')
}

/** Esc: stops what runs in the session (a turn or a compaction; both are the session's run). */
export function stopRunning(sessionId: string): boolean {
  const live = useCompactionStore.getState().bySession[sessionId]?.live
  if (live) {
    void cancelCompaction(sessionId)
    return true
  }
  if (useChatStore.getState().bySession[sessionId]?.running) {
    void stopTurn(sessionId)
    return true
  }
  return false
}

/**
 * `filesListing`: the open project's instruction and memory files, as the Files view lists them (the palette reads
 * them when it opens); without it, the Files view's own listing when it is of the open project.
 */
export function buildCommands(filesListing?: FilesListingView | null): Command[] {
  const project = selectSelectedProject(useProjectsStore.getState())
  const sessionId = useSessionsStore.getState().selectedId
  const chat = sessionId ? useChatStore.getState().bySession[sessionId] : undefined
  const live = sessionId ? useCompactionStore.getState().bySession[sessionId]?.live : null
  const inspector = useInspectorStore.getState()
  const out: Command[] = []

  for (const v of MAIN_VIEWS) {
    if (viewBlocked(v.id, openNow()) === null) out.push({ id: `view.${v.id}`, group: 'View', label: `Go to ${v.label}`, keys: `Alt+${v.key}`, run: () => showView(v.id) })
  }

  // A folder of Claude Code's logs or of the proxy's captures takes no session of its own.
  // Nor does a folder that is gone from disk (decision 0022).
  if (project && !project.notWorkingFolder && !project.folderGone) out.push({ id: 'session.new', group: 'Session', label: `New session in ${project.name}`, run: () => void startSession(project.id) })
  // Read, not run: an imported session's folder need not be here (decision 0022 keeps such sessions readable).
  if (project) out.push({ id: 'session.import', group: 'Session', label: `Import a session into ${project.name}…`, run: () => useSessionsStore.getState().importAsked(project.id) })
  if (sessionId && (chat?.running || live)) out.push({ id: 'run.stop', group: 'Session', label: live ? 'Cancel the compaction' : 'Stop the running turn', keys: 'Esc', run: () => void stopRunning(sessionId) })
  if (sessionId && openNow().hasSession) {
    const sessions = useSessionsStore.getState()
    out.push({ id: 'session.rename', group: 'Session', label: 'Rename this session…', run: () => sessions.renameStarted(sessionId) })
    out.push({ id: 'session.delete', group: 'Session', label: 'Delete this session…', run: () => sessions.deleteAsked(sessionId) })
    out.push({ id: 'session.export', group: 'Session', label: 'Export this session to a file…', run: () => sessions.exportAsked(sessionId) })
  }
  if (sessionId) {
    out.push({ id: 'chat.focus', group: 'Session', label: 'Write a message', keys: 'Mod+L', run: () => (showView('chat'), focusMessageBox()) })
    // As the chat offers it (decision 0024): the last message of a session Loupe runs, between turns.
    const session = Object.values(useSessionsStore.getState().byProject).flat().find((s) => s.id === sessionId)
    const origin = session?.origin
    const last = chat && !chat.running && chat.approvals.length === 0 && origin !== 'transcript' && origin !== 'captured' ? takeBackable(chat.entries, takeBacks(chat.entries).folded, session?.continued?.inherited ?? null) : null
    if (last) out.push({ id: 'chat.takeBack', group: 'Session', label: 'Take back the last message', run: () => (showView('chat'), void takeBackMessage(sessionId, last.id)) })
    // As the chat header offers it: a session Loupe runs, between turns, through the question of what the switch
    // costs (decisions 0021, 0029), never switched silently.
    // The models the choice offers (decision 0056): not the session's own, however it is spelled; from a model the
    // app does not know, every one of its list.
    if (chat && !chat.running && origin !== 'transcript' && origin !== 'captured') {
      for (const m of switchTargets(chat.model)) out.push({ id: `model.${m.value}`, group: 'Session', label: `Switch model to ${m.label}…`, run: () => (showView('chat'), askModelSwitch(sessionId, m.value)) })
    }
    out.push({ id: 'compaction.now', group: 'Compaction', label: 'Compact now with a focus…', keys: 'Mod+Shift+K', run: openCompactNow })
    out.push({ id: 'compaction.dry', group: 'Compaction', label: 'Dry run: draft a summary to read and edit', run: () => (showView('compaction'), void compactNow(sessionId, '', true)) })
    out.push({ id: 'compaction.pin', group: 'Compaction', label: 'Pin a fact', run: () => (showView('compaction'), focusField('input[aria-label="Fact to pin"]')) })

    out.push({ id: 'inspector.toggle', group: 'Inspector', label: selectInspectorHidden(inspector) ? 'Show the inspector' : 'Hide the inspector', keys: 'Mod+I', run: toggleInspector })
    out.push({ id: 'inspector.dock', group: 'Inspector', label: inspector.layout.dock === 'right' ? 'Dock the inspector below the chat' : 'Dock the inspector beside the chat', run: () => inspector.dockChosen(inspector.layout.dock === 'right' ? 'bottom' : 'right') })
    out.push({ id: 'pass.next', group: 'Inspector', label: 'Next pass', keys: 'Alt+↓', run: () => stepPass(1) })
    out.push({ id: 'pass.previous', group: 'Inspector', label: 'Previous pass', keys: 'Alt+↑', run: () => stepPass(-1) })
    for (const view of ['request', 'response', 'diff'] as InspectorView[]) {
      out.push({ id: `inspector.${view}`, group: 'Inspector', label: `Show the ${view} of the selected pass`, run: () => (showView('chat'), showInspector(), inspector.viewChosen(view)), focus: selectedInspectorTab })
    }
  }

  // The project's own actions, after the session's: its files have their group below.
  if (project) out.push({ id: 'project.remove', group: 'Project', label: `Remove ${project.name} from the list`, run: () => void removeProject(project.id) })

  const listing = filesListing !== undefined ? filesListing : useFilesStore.getState().projectId === project?.id ? useFilesStore.getState().listing : null
  if (project && listing) {
    // As the Files view lists them, by path; a memory file says whose memory it is, so "memory" finds both.
    const memoryOf = (n: FileNodeView) => (n.kind !== 'memory' ? '' : n.absPath.startsWith(`${listing.root}/`) ? ' (project memory)' : ' (user memory)')
    const walk = (nodes: ReadonlyArray<FileNodeView>): void => {
      for (const n of nodes) {
        out.push({ id: `file.open.${n.path}`, group: 'Files', label: `Edit ${n.path}${memoryOf(n)}`, run: () => editFile(project.id, n.path, openFile) })
        walk(n.children)
      }
    }
    walk([...listing.instructions, ...listing.memory])
    for (const c of listing.creatable) out.push({ id: `file.create.${c.path}`, group: 'Files', label: `Create ${c.label}`, run: () => editFile(project.id, c.path, startNewFile) })
  } else if (project) {
    out.push({ id: 'files.open', group: 'Files', label: 'Edit instruction and memory files', run: () => showView('files') })
  }

  out.push(...goToCommands(project?.id ?? null, sessionId))

  out.push({ id: 'theme.light', group: 'Settings', label: 'Theme: light', run: () => void chooseTheme('light') })
  out.push({ id: 'theme.dark', group: 'Settings', label: 'Theme: dark', run: () => void chooseTheme('dark') })
  out.push({ id: 'theme.system', group: 'Settings', label: 'Theme: follow the system', run: () => void chooseTheme('system') })
  out.push({ id: 'settings.key', group: 'Settings', label: 'Set the Anthropic API key', run: () => (showView('settings'), focusField('input[aria-label="API key"]')) })
  out.push({ id: 'settings.model', group: 'Settings', label: 'Choose the model for new sessions', run: () => (showView('settings'), focusField('select[aria-label="Model"]')) })
  return out
}

/**
 * A command for one of the inspector's views brings the inspector wherever it is out of sight: collapsed to its bar,
 * or, where only one pane fits, the chat showing in its place (decision 0048).
 */
/** The inspector's tab of the view shown (Request, Response, Diff), when the inspector shows one. */
function selectedInspectorTab(): HTMLElement | null {
  return document.querySelector<HTMLElement>('.insp-tabs [role="tab"][aria-selected="true"]')
}

/** Opens (or starts) a file in the Files view, the keyboard in its editor once it is there, with what was typed meanwhile. */
function editFile(projectId: string, path: string, open: (projectId: string, path: string) => Promise<void>): void {
  showView('files')
  void open(projectId, path)
  focusWhenShown(fileEditorTarget(projectId, path))
}

/** The palette's Go to commands (go-to.ts): the open project's other sessions, then the other projects. */
function goToCommands(projectId: string | null, sessionId: string | null): Command[] {
  const sessions = projectId === null ? [] : (useSessionsStore.getState().byProject[projectId] ?? [])
  return goToTargets(useProjectsStore.getState().projects, projectId, sessions, sessionId).map((t) => ({
    id: `goto.${t.kind}.${t.id}`,
    group: 'Go to',
    label: t.label,
    run: () => (t.kind === 'session' ? openSession(t.id) : openProjectNamed(t.id)),
  }))
}

/** Shows a session where the user is (the view stays: Compaction and Cache follow it); in the chat, ready to type. */
function openSession(id: string): void {
  useSessionsStore.getState().sessionSelected(id)
  if (useSettingsStore.getState().view === 'chat') focusMessageBox()
}

/** Opens a project in the sidebar, the keyboard on it: its sessions are listed right after it. */
function openProjectNamed(id: string): void {
  void selectProject(id)
  focusField('.sidebar button.project[aria-current="true"]')
}

/** Commands whose label (or group) contains every word typed, in order of the list. */
export function filterCommands(commands: ReadonlyArray<Command>, query: string): Command[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...commands]
  return commands.filter((c) => {
    const text = `${c.group} ${c.label}`.toLowerCase()
    return words.every((w) => text.includes(w))
  })
}
