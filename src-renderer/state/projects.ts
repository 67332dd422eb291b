import { create } from 'zustand'
import type { Project } from '../../src-preload/contract'

interface ProjectsState {
  readonly projects: ReadonlyArray<Project>
  readonly selectedId: string | null
  readonly opening: boolean
  readonly openError: string | null
  projectsLoaded(projects: ReadonlyArray<Project>): void
  openStarted(): void
  projectOpened(project: Project): void
  openFailed(message: string): void
  /** The folder path was edited: a refusal of the path tried before no longer applies. */
  openPathEdited(): void
  /** A project was chosen from the list: a refusal of a folder tried before is past too. */
  projectSelected(id: string): void
  /** Another window (or an import, or the proxy) opened a project: listed, not selected. */
  projectAppeared(project: Project): void
  /**
   * A project was taken out of the list (here or in another window). When it was the selected one, the project next
   * to it in the list is selected instead (the one below, else the one above), or none.
   */
  projectRemoved(id: string): void
}

export const useProjectsStore = create<ProjectsState>()((set) => ({
  projects: [],
  selectedId: null,
  opening: false,
  openError: null,
  projectsLoaded: (projects) => set((s) => ({ projects, selectedId: s.selectedId ?? projects[0]?.id ?? null })),
  openStarted: () => set({ opening: true, openError: null }),
  projectOpened: (project) =>
    set((s) => ({
      opening: false,
      openError: null,
      selectedId: project.id,
      projects: [project, ...s.projects.filter((p) => p.id !== project.id)],
    })),
  openFailed: (message) => set({ opening: false, openError: message }),
  openPathEdited: () => set((s) => (s.openError === null ? s : { openError: null })),
  projectSelected: (id) => set((s) => (s.openError === null ? { selectedId: id } : { selectedId: id, openError: null })),
  projectRemoved: (id) =>
    set((s) => {
      const at = s.projects.findIndex((p) => p.id === id)
      if (at < 0) return {}
      const projects = s.projects.filter((p) => p.id !== id)
      const selectedId = s.selectedId !== id ? s.selectedId : (projects[at] ?? projects[at - 1])?.id ?? null
      return { projects, selectedId }
    }),
  projectAppeared: (project) =>
    set((s) => (s.projects.some((p) => p.id === project.id) ? { projects: s.projects.map((p) => (p.id === project.id ? project : p)) } : { projects: [project, ...s.projects], selectedId: s.selectedId ?? project.id })),
}))

export const selectSelectedProject = (s: ProjectsState): Project | null =>
  s.projects.find((p) => p.id === s.selectedId) ?? null
