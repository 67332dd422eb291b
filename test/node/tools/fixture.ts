/** A temporary project with a sibling "outside" folder and symbolic links that lead out of the root. */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import {
  applyToolEffects,
  emptyToolSessionState,
  forgetReadsAtCompaction,
  type ToolOutcome,
  type ToolSessionState,
} from '../../../src-main/engine/tools'
import { createToolExecutor, type NodeToolExecutor, type ToolExecutorOptions } from '../../../src-main/node/tools'

export interface Fixture {
  readonly base: string
  readonly root: string
  readonly outside: string
  readonly home: string
  write(rel: string, content: string): void
  read(rel: string): string
  cleanup(): void
}

export function makeFixture(files: Record<string, string> = {}): Fixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-tools-')))
  const root = join(base, 'project')
  const outside = join(base, 'outside')
  const home = join(base, 'home')
  for (const folder of [root, outside, home]) mkdirSync(folder)
  const write = (rel: string, content: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true })
    writeFileSync(join(root, rel), content)
  }
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET\n')
  mkdirSync(join(outside, 'skills', 'evil'), { recursive: true })
  writeFileSync(join(outside, 'skills', 'evil', 'SKILL.md'), 'evil body\n')
  for (const [rel, content] of Object.entries(files)) write(rel, content)
  symlinkSync(outside, join(root, 'link-out'))
  symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'))
  symlinkSync(join(outside, 'does-not-exist.txt'), join(root, 'dangling.txt'))
  return {
    base,
    root,
    outside,
    home,
    write,
    read: (rel) => readFileSync(join(root, rel), 'utf8'),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  }
}

/** An executor plus the session state the loop would keep, folded from each outcome's effects. */
export class Session {
  state: ToolSessionState = emptyToolSessionState()
  readonly executor: NodeToolExecutor
  private next = 0

  constructor(fixture: Fixture, options: Partial<ToolExecutorOptions> = {}) {
    this.executor = createToolExecutor({ root: fixture.root, loupeHome: fixture.home, ripgrep: 'off', ...options })
  }

  async call(name: string, input: unknown, signal: AbortSignal = new AbortController().signal): Promise<ToolOutcome> {
    const outcome = await this.executor.execute({ id: `toolu_${this.next++}`, name, input }, { signal, sessionState: this.state })
    this.state = applyToolEffects(this.state, outcome.effects)
    return outcome
  }

  compact(): void {
    this.state = forgetReadsAtCompaction(this.state)
  }
}
