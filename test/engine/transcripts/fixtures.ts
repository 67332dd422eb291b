/** Reads the copied real transcripts under test/fixtures/real/ (never ../shared). */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const FIXTURES = fileURLToPath(new URL('../../fixtures/real/', import.meta.url))

/** The three large 2.x sessions the bench and the compaction tests use. */
export const SPOTTER_SESSIONS = [
  'fa812bfe-b295-4cca-9c2f-fdf01028cb46',
  'ae4a77f8-aedd-4bc1-888f-c94edc91af04',
  '4d5611e5-241a-462a-8d15-5122611a9569',
] as const

export interface FixtureSession {
  readonly name: string
  readonly text: string
  readonly subagents: ReadonlyArray<{ readonly name: string; readonly text: string }>
}

export function readFixture(source: 'spotter' | 'claude-code-viewer', sessionFile: string): FixtureSession {
  const path = join(FIXTURES, source, sessionFile)
  const dir = join(FIXTURES, source, sessionFile.replace(/\.jsonl$/, ''), 'subagents')
  const subagents = existsSync(dir)
    ? readdirSync(dir)
        .sort()
        .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }))
    : []
  return { name: `${source}/${sessionFile}`, text: readFileSync(path, 'utf8'), subagents }
}

/** Every session file copied (subagent files are read with their session). */
export function allFixtureSessions(): FixtureSession[] {
  const out: FixtureSession[] = []
  for (const source of ['spotter', 'claude-code-viewer'] as const) {
    for (const name of readdirSync(join(FIXTURES, source)).sort()) if (name.endsWith('.jsonl')) out.push(readFixture(source, name))
  }
  return out
}
