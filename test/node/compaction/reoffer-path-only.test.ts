/**
 * A file a compaction names without showing (its text would have kept the context from shrinking) has left the
 * model's context: the next read_file of it shows it in full, not "unchanged since your last read".
 */
import { afterEach, describe, expect, it } from 'vitest'
import { openHarness, type Harness } from './harness'

// Three files of a few hundred tokens each, read first: the part a compaction summarises is mostly their text, so
// offering all three again would leave the context as large as before, and the oldest are named instead.
const prose = (topic: string) => Array.from({ length: 24 }, (_, i) => `- ${topic} rule ${i}: keep it small and tested.`).join('\n')
const FILES = {
  'README.md': `# Parser\n\n${prose('readme')}\n`,
  'package.json': `{ "name": "parser", "description": ${JSON.stringify(prose('package'))} }\n`,
  'src/parser.ts': `// ${prose('parser').replaceAll('\n', '\n// ')}\nexport function parse(text: string) {\n  return text.split(" ")\n}\n`,
}

describe('a file named, not shown, by a compaction', () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('is read in full by the next read_file, and the head says why it is only named', async () => {
    h = await openHarness({ files: FILES })
    expect(await h.send('read README.md')).toBe('end_turn')
    expect(await h.send('read package.json')).toBe('end_turn')
    expect(await h.send('read src/parser.ts')).toBe('end_turn')
    for (const more of ['list src', 'list the root', 'list src', 'list the root']) expect(await h.send(more)).toBe('end_turn')
    // A long focus makes the head larger still, so only some of the files fit in it.
    const focus = `keep the parser decisions: ${Array.from({ length: 60 }, (_, i) => `decision ${i} stands`).join(', ')}`
    expect(await h.send(`/compact ${focus}`)).toBe('compacted')
    const checkpoint = h.entries().at(-1) as Record<string, any>
    const named = (checkpoint.reinjected.files as Array<{ path: string; offered: string }>).filter((f) => f.offered === 'path_only').map((f) => f.path)
    expect(named.length).toBeGreaterThan(0)

    for (const path of named) {
      expect(await h.send(`read ${path}`)).toBe('end_turn')
      const result = h.entries().filter((e) => e.kind === 'tool_result').at(-1) as Record<string, any>
      expect(result.content).not.toContain('unchanged since your last read')
      expect(result.content).toContain(FILES[path as keyof typeof FILES].split('\n')[0])
    }
    // Named because its text would have kept the context from shrinking, which is what the head says: none of them
    // is too large to show.
    const headText = (checkpoint.view.head as Array<{ text: string }>).map((b) => b.text).join('\n')
    expect(headText).toContain('[Files read recently, named here to keep the compacted context small; read them again if you need them]')
  })
})
