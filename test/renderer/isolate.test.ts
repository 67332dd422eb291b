/** A sentence cut where it names what it was given, so each name can be set apart (src-renderer/ui/isolate.ts). */
import { describe, expect, it } from 'vitest'
import { isolateNames, pathParts } from '../../src-renderer/ui/isolate'

describe('a sentence with names set apart', () => {
  it('cuts at every occurrence of each name, the words around them kept', () => {
    const path = 'notes/שלום\u202Etxt.md'
    expect(isolateNames(`Saved ${path}. A session keeps its earlier text of ${path}.`, [path])).toEqual(['Saved ', { isolated: path }, '. A session keeps its earlier text of ', { isolated: path }, '.'])
  })

  it('takes the longest name where two start at one place, and the earliest of several', () => {
    expect(isolateNames('docs/a.md.bak, then docs/a.md, differ on disk', ['docs/a.md', 'docs/a.md.bak'])).toEqual([{ isolated: 'docs/a.md.bak' }, ', then ', { isolated: 'docs/a.md' }, ', differ on disk'])
    expect(isolateNames('b.md, a.md differ', ['a.md', 'b.md'])).toEqual([{ isolated: 'b.md' }, ', ', { isolated: 'a.md' }, ' differ'])
  })

  it('leaves a sentence without the names, or with only empty ones, whole', () => {
    expect(isolateNames('Saved it.', ['AGENTS.md'])).toEqual(['Saved it.'])
    expect(isolateNames('Saved it.', ['', ''])).toEqual(['Saved it.'])
    expect(isolateNames('AGENTS.md', ['AGENTS.md'])).toEqual([{ isolated: 'AGENTS.md' }])
    expect(isolateNames('', ['AGENTS.md'])).toEqual([])
  })

  it('cuts a path into its names and separators, so each name is set apart alone', () => {
    expect(pathParts('/tmp/שלום \u202Etxt.exe/notes/a.md')).toEqual(['', '/', 'tmp', '/', 'שלום \u202Etxt.exe', '/', 'notes', '/', 'a.md'])
    expect(pathParts('C:\\Users\\dana\\AGENTS.md')).toEqual(['C:', '\\', 'Users', '\\', 'dana', '\\', 'AGENTS.md'])
    expect(pathParts('AGENTS.md')).toEqual(['AGENTS.md'])
    expect(pathParts('')).toEqual([''])
  })
})
