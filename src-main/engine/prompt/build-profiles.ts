/**
 * Detected build-and-test notes (docs/context-engine.md "Sections and their stability"): one short note per toolchain
 * whose marker file sits at the root, saying how to run the tests and how to run one test. Nothing is said when no
 * profile matches (docs/design.md §1, rule 1: the model can discover the rest).
 */
import type { BuildFacts } from './gathered'

export type BuildTool = 'node' | 'maven' | 'gradle' | 'python' | 'cargo' | 'go'

export interface BuildProfile {
  readonly tool: BuildTool
  /** e.g. "npm, vitest" — what was detected, shown in the note. */
  readonly detected: string
  readonly testCommand: string
  readonly oneTestCommand: string
}

function has(facts: BuildFacts, ...names: string[]): boolean {
  return names.some((n) => facts.rootFiles.includes(n))
}

function nodeProfile(facts: BuildFacts): BuildProfile | null {
  if (!has(facts, 'package.json')) return null
  const declared = facts.packageJson?.packageManager ?? ''
  const manager = declared.startsWith('pnpm') || has(facts, 'pnpm-lock.yaml')
    ? 'pnpm'
    : declared.startsWith('yarn') || has(facts, 'yarn.lock')
      ? 'yarn'
      : 'npm'
  const exec = manager === 'npm' ? 'npx' : `${manager} exec`
  const script = facts.packageJson?.testScript ?? ''
  const test = `${manager} test`
  if (/\bvitest\b/.test(script)) {
    return { tool: 'node', detected: `${manager}, vitest`, testCommand: test, oneTestCommand: `${exec} vitest run <file> -t "<test name>"` }
  }
  if (/\bjest\b/.test(script)) {
    return { tool: 'node', detected: `${manager}, jest`, testCommand: test, oneTestCommand: `${exec} jest <file> -t "<test name>"` }
  }
  if (/\bmocha\b/.test(script)) {
    return { tool: 'node', detected: `${manager}, mocha`, testCommand: test, oneTestCommand: `${exec} mocha <file> --grep "<test name>"` }
  }
  if (/\bnode\b.*--test\b/.test(script)) {
    return { tool: 'node', detected: `${manager}, node:test`, testCommand: test, oneTestCommand: `node --test --test-name-pattern="<test name>" <file>` }
  }
  if (script === '') return null
  return { tool: 'node', detected: manager, testCommand: test, oneTestCommand: `${manager} test -- <arguments for the test runner>` }
}

function javaProfiles(facts: BuildFacts): BuildProfile[] {
  const out: BuildProfile[] = []
  if (has(facts, 'pom.xml')) {
    const mvn = has(facts, 'mvnw') ? './mvnw' : 'mvn'
    out.push({ tool: 'maven', detected: 'Maven', testCommand: `${mvn} test`, oneTestCommand: `${mvn} test -Dtest='<ClassName>#<method>'` })
  }
  if (has(facts, 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts')) {
    const gradle = has(facts, 'gradlew') ? './gradlew' : 'gradle'
    out.push({ tool: 'gradle', detected: 'Gradle', testCommand: `${gradle} test`, oneTestCommand: `${gradle} test --tests '<package.ClassName.method>'` })
  }
  return out
}

function pythonProfile(facts: BuildFacts): BuildProfile | null {
  if (!has(facts, 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'pytest.ini', 'tox.ini')) return null
  const runner = has(facts, 'uv.lock') ? 'uv run pytest' : has(facts, 'poetry.lock') ? 'poetry run pytest' : 'pytest'
  return { tool: 'python', detected: `Python, ${runner.split(' ')[0]}`, testCommand: runner, oneTestCommand: `${runner} <path/to/test_file.py>::<test_name>` }
}

export function detectBuildProfiles(facts: BuildFacts): BuildProfile[] {
  const profiles: BuildProfile[] = []
  const node = nodeProfile(facts)
  if (node) profiles.push(node)
  profiles.push(...javaProfiles(facts))
  const python = pythonProfile(facts)
  if (python) profiles.push(python)
  if (has(facts, 'Cargo.toml')) {
    profiles.push({ tool: 'cargo', detected: 'Cargo', testCommand: 'cargo test', oneTestCommand: 'cargo test <test name filter>' })
  }
  if (has(facts, 'go.mod')) {
    profiles.push({ tool: 'go', detected: 'Go', testCommand: 'go test ./...', oneTestCommand: "go test ./<package dir> -run '^<TestName>$'" })
  }
  return profiles
}

export function renderBuildNotes(profiles: ReadonlyArray<BuildProfile>): string {
  if (profiles.length === 0) return ''
  const lines = ['Build and test (detected from files at the root):']
  for (const p of profiles) lines.push(`- ${p.detected}: run the tests with \`${p.testCommand}\`; one test with \`${p.oneTestCommand}\`.`)
  return lines.join('\n')
}
