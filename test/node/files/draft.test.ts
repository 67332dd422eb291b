/**
 * The project as the prompt builder would read it with a draft saved: the one file answers with the draft (through
 * a link to the file it names, or before it exists), imports the draft adds are followed, nothing is written, and a
 * path outside the project and ~/.loupe is never substituted.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { freezeSessionSection } from '../../../src-main/engine/prompt'
import type { GatheredContext } from '../../../src-main/engine/prompt/gathered'
import { gatherWithDraft } from '../../../src-main/node/files'
import { gatherProjectContext } from '../../../src-main/node/instructions'
import { filesSandbox, SECRET, type FilesSandbox } from './sandbox'

let box: FilesSandbox
beforeEach(() => {
  box = filesSandbox()
})
afterEach(() => box.cleanup())

const roots = () => ({ root: box.root, loupeHome: box.loupeHome, homeDir: box.homeDir, now: box.now() })
const block = (g: GatheredContext) => freezeSessionSection(g, { origin: { kind: 'session_start' }, contextWindowTokens: 200_000, skills: false }).instructions.text

describe('gatherWithDraft', () => {
  it('reads the draft in place of the file, follows the imports it adds, and writes nothing', async () => {
    box.write('CLAUDE.md', '# Project\n\nRun the tests.\n')
    box.write('docs/style.md', 'Tabs, not spaces.\n')
    const draft = '# Project\n\nRun the tests and the linter. See @docs/style.md.\n'
    const gathered = await gatherWithDraft('CLAUDE.md', draft, roots())
    const text = block(gathered)
    expect(text).toContain('Run the tests and the linter.')
    expect(text).toContain('Tabs, not spaces.')
    expect(readFileSync(join(box.root, 'CLAUDE.md'), 'utf8')).toBe('# Project\n\nRun the tests.\n')
    // Everything else is what gathering the disk gives.
    const disk = await gatherProjectContext(box.root, { homeDir: box.homeDir, loupeHome: box.loupeHome, now: box.now() })
    expect(gathered.facts).toEqual(disk.facts)
    expect(block(disk)).not.toContain('linter')
  })

  it('writes through a link inside the project to the file it names, and creates a file that is not there yet', async () => {
    box.write('AGENTS.md', '# Agents\n\nShared text.\n')
    box.link('CLAUDE.md', 'AGENTS.md')
    const linked = block(await gatherWithDraft('CLAUDE.md', '# Agents\n\nEdited through the link.\n', roots()))
    expect(linked).toContain('Edited through the link.')
    expect(linked).not.toContain('Shared text.')
    const created = block(await gatherWithDraft('CLAUDE.local.md', 'Local notes.\n', roots()))
    expect(created).toContain('Local notes.')
  })

  it('prices a draft that keeps a byte-order mark as the session would read it: without the mark', async () => {
    box.write('CLAUDE.md', '\uFEFF# Project\n\nRun the tests.\n')
    const text = block(await gatherWithDraft('CLAUDE.md', '\uFEFF# Project\n\nRun the tests and the linter.\n', roots()))
    expect(text).toContain('\n\n# Project\n\nRun the tests and the linter.')
    expect(text).not.toContain('\uFEFF')
  })

  it('substitutes nothing for a path outside the project and ~/.loupe', async () => {
    box.write('CLAUDE.md', 'Project text.\n')
    const gathered = await gatherWithDraft(join(box.outside, 'secret.md'), 'DRAFT-MARKER', roots())
    expect(block(gathered)).toContain('Project text.')
    expect(JSON.stringify(gathered)).not.toContain(SECRET)
    expect(JSON.stringify(gathered)).not.toContain('DRAFT-MARKER')
  })
})
