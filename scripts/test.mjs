#!/usr/bin/env node
/**
 * `npm test`: type-check, unit tests (vitest), build, then the e2e suite in Chromium. Stops at the first failure
 * and ends with one line counting every test run: `tests: N passed, N failed`.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
// Not test-results/: Playwright empties that folder when it starts.
const reports = join(root, '.reports')
mkdirSync(reports, { recursive: true })
const unitReport = join(reports, 'unit.json')
const e2eReport = join(reports, 'e2e.json')
for (const f of [unitReport, e2eReport]) rmSync(f, { force: true })

const bin = (pkg, file) => join(root, 'node_modules', pkg, file)
const steps = [
  ['type-check', [bin('typescript', 'bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], {}],
  ['unit tests', [bin('vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`], {}],
  ['build', [bin('electron-vite', 'bin/electron-vite.js'), 'build'], {}],
  ['e2e', [join(root, 'scripts/e2e.mjs')], { PLAYWRIGHT_JSON_OUTPUT_FILE: e2eReport }],
]

function counts() {
  let passed = 0
  let failed = 0
  if (existsSync(unitReport)) {
    const unit = JSON.parse(readFileSync(unitReport, 'utf8'))
    passed += unit.numPassedTests ?? 0
    failed += unit.numFailedTests ?? 0
  }
  if (existsSync(e2eReport)) {
    const e2e = JSON.parse(readFileSync(e2eReport, 'utf8'))
    passed += e2e.stats?.expected ?? 0
    failed += (e2e.stats?.unexpected ?? 0) + (e2e.stats?.flaky ?? 0)
  }
  return { passed, failed }
}

for (const [name, args, env] of steps) {
  console.log(`\n▶ ${name}`)
  const started = Date.now()
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.status !== 0) {
    const { passed, failed } = counts()
    console.error(`\n✖ ${name} failed (exit ${result.status ?? result.signal})`)
    console.log(`tests: ${passed} passed, ${Math.max(failed, 1)} failed`)
    process.exit(result.status ?? 1)
  }
  console.log(`✔ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
const { passed, failed } = counts()
console.log(`\ntests: ${passed} passed, ${failed} failed`)
