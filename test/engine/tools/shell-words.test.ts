import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseCommand, programOf } from '../../../src-main/engine/tools/shell-words'

const words = (command: string) => parseCommand(command).segments.map((s) => s.words)

describe('parseCommand', () => {
  it('splits on every control operator', () => {
    expect(words('a 1 && b || c; d | e & f |& g\nh')).toEqual([['a', '1'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g'], ['h']])
    expect(parseCommand('a | b').segments[1]!.after).toBe('|')
  })

  it('keeps quoted operators inside their word', () => {
    expect(words(`echo "a && b" 'c; d' e\\;f`)).toEqual([['echo', 'a && b', 'c; d', 'e;f']])
    expect(words(`grep -e "it's" x`)).toEqual([['grep', '-e', "it's", 'x']])
    expect(words(`echo ""`)).toEqual([['echo', '']])
  })

  it('sees commands inside substitutions, and says there were some', () => {
    const parsed = parseCommand('echo "today: $(date +%F; rm -rf /)" `id` <(curl x)')
    expect(parsed.hasSubstitution).toBe(true)
    expect(parsed.segments.map((s) => s.words)).toEqual([['date', '+%F'], ['rm', '-rf', '/'], ['id'], ['curl', 'x'], ['echo', 'today: $(…)', '$(…)', '$(…)']])
    expect(parseCommand('echo $HOME ${X}').hasSubstitution).toBe(false)
    expect(parseCommand("echo '$(not run)'").hasSubstitution).toBe(false)
  })

  it('separates redirections from arguments and records file writes', () => {
    const parsed = parseCommand('npm test > out.txt 2>&1 < in.txt')
    expect(parsed.segments.map((s) => s.words)).toEqual([['npm', 'test']])
    expect(parsed.writeRedirects).toEqual(['out.txt'])
    expect(parseCommand('make 2>/dev/null >>log &>all.txt').writeRedirects).toEqual(['/dev/null', 'log', 'all.txt'])
    expect(parseCommand('echo x >&2').writeRedirects).toEqual([])
    expect(parseCommand('echo x 2> err').segments[0]!.words).toEqual(['echo', 'x'])
  })

  it('skips here-document bodies and comments', () => {
    const parsed = parseCommand("cat <<'EOF' > notes.md\nrm -rf /\nEOF\nls # && rm x")
    expect(parsed.segments.map((s) => s.words)).toEqual([['cat'], ['ls']])
    expect(parsed.writeRedirects).toEqual(['notes.md'])
    expect(parsed.complete).toBe(true)
    expect(parseCommand('cat <<EOF\nnever closed').complete).toBe(false)
  })

  it('reports unclosed quotes and substitutions', () => {
    expect(parseCommand('echo "open').complete).toBe(false)
    expect(parseCommand('echo $(open').complete).toBe(false)
    expect(parseCommand('echo done').complete).toBe(true)
  })

  it('joins continued lines and treats subshell parentheses as boundaries', () => {
    expect(words('npm \\\n test')).toEqual([['npm', 'test']])
    expect(words('(cd sub && make)')).toEqual([['cd', 'sub'], ['make']])
  })

  it('never throws, on anything', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (command) => {
      parseCommand(command)
    }))
  })

  it('splits any chain of plain commands into exactly those commands', () => {
    const word = fc.stringMatching(/^[a-z0-9_.\/-]{1,8}$/)
    const op = fc.constantFrom('&&', '||', ';', '|', '&', '\n')
    fc.assert(
      fc.property(fc.array(fc.array(word, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), op, (commands, operator) => {
        const parsed = parseCommand(commands.map((c) => c.join(' ')).join(` ${operator} `))
        expect(parsed.segments.map((s) => s.words)).toEqual(commands)
      }),
    )
  })
})

describe('programOf', () => {
  it('looks through assignments, wrappers and folders', () => {
    const program = (command: string) => programOf(parseCommand(command).segments[0]!)?.program
    expect(program('FOO=1 nohup /usr/bin/sudo id')).toBe('sudo')
    expect(program('timeout 5 sudo ls')).toBe('sudo')
    expect(program('nice -n 10 env -i A=b rm -rf x')).toBe('rm')
    expect(program('ls -la')).toBe('ls')
    expect(program('FOO=1')).toBeUndefined()
  })
})
