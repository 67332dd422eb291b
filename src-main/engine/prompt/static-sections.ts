/**
 * The static sections of system[0] (docs/context-engine.md "Sections and their stability"), in order: base rules, the
 * identity line, one line per feature that is on, detected build-and-test notes. Nothing here depends on time,
 * counters or session state: for one app version, one set of settings and one project, the bytes never change, so the
 * block can carry a 1-hour breakpoint and be shared across sessions.
 */
import type { BuildProfile } from './build-profiles'
import { renderBuildNotes } from './build-profiles'
import { displayPath, sanitizeIdentity } from './sanitize'

/**
 * Which feature lines system[0] carries. The flags choose lines only: the tools sent are the same whatever they say.
 * The app sets them in one place (node/session/prompt-settings.ts): todo and skills on, sandbox and hooks off,
 * since Loupe has no sandbox and no hooks.
 */
export interface FeatureFlags {
  /** The line saying commands run in a sandbox (no network, no writes outside the root). */
  readonly sandbox: boolean
  /** The line saying project hooks run around tool calls. */
  readonly hooks: boolean
  /** The line asking for a task list, kept with the `todo_write` tool. */
  readonly todo: boolean
  /** The line pointing at the `skill` tool for the skills the session block lists. */
  readonly skills: boolean
}

export const APP_NAME = 'Loupe'

export function baseRules(root: string): string {
  return [
    `You are ${APP_NAME}, a coding agent working in a project on the user's computer. You read, search, edit and run things in the project to do what the user asks, and you say plainly what you did.`,
    '',
    `The working root is ${displayPath(root)}. Relative paths in tool calls are relative to it.`,
    '',
    '- Look before you answer. When a question is about this project, read or search the files that matter instead of guessing; the instructions and the top-level listing say where things are, not what they contain.',
    '- Use the file tools to read, search, list and edit files. Use the shell for builds, tests, git and other programs, not to read or change files (no cat, sed or echo into files).',
    '- Read a file before you edit it, and change only what the task needs.',
    '- When the user denies a tool call, do not retry it or reach the same result another way. Say what you wanted to do and why, then continue without it or ask how to proceed.',
    '- Save a fact with `remember` only when it will matter in later sessions and cannot be found in the project: a preference the user stated, a decision and its reason, a command that is written down nowhere. Never save secrets.',
    '- Be brief. Answer in a few sentences, show code only when it helps, and end with what changed and what is left.',
  ].join('\n')
}

/** "This is Loupe, and the model is <model>", both names sanitised so neither can add a line or a marker. */
export function identityLine(model: string, appName: string = APP_NAME): string {
  return `This is ${sanitizeIdentity(appName)}, and the model is ${sanitizeIdentity(model)}.`
}

/** One line per feature that is on, in a fixed order; empty when none is. */
export function featureLines(features: FeatureFlags): string {
  const lines: string[] = []
  if (features.sandbox) {
    lines.push('- Commands run in a sandbox: network access and writes outside the working root are blocked. When a command fails for that reason, say so instead of working around it.')
  }
  if (features.hooks) {
    lines.push('- Project hooks run around some tool calls and their output appears in tool results. A hook that blocks a call speaks for the user.')
  }
  if (features.todo) {
    lines.push('- For work with several steps, keep a short task list with the `todo_write` tool and keep it current.')
  }
  if (features.skills) {
    lines.push('- Skills listed in the session instructions can be loaded with the `skill` tool when a task matches one.')
  }
  return lines.length === 0 ? '' : ['Features on in this session:', ...lines].join('\n')
}

export function buildNotes(profiles: ReadonlyArray<BuildProfile>): string {
  return renderBuildNotes(profiles)
}
