import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PassDetailView } from '../../../src-preload/contract'

/** The four passes of a recorded simulator session (see test/fixtures/inspector/README.md). */
export function recordedPasses(): PassDetailView[] {
  return JSON.parse(readFileSync(join(__dirname, '../../fixtures/inspector/passes.json'), 'utf8')) as PassDetailView[]
}
