import { describe, expect, it } from 'vitest'
import { ruleScope, splitFrontmatter } from '../../../src-main/engine/prompt/frontmatter'

describe('ruleScope', () => {
  it('a rule without frontmatter always applies', () => {
    expect(ruleScope('Use tabs.')).toEqual({ kind: 'always', body: 'Use tabs.' })
  })

  it('reads a YAML list of quoted globs, as PostHog writes them', () => {
    const scope = ruleScope("---\npaths:\n  - 'posthog/api/**'\n  - 'products/*/backend/api/**'\n---\n\nBody text.\n")
    expect(scope).toEqual({ kind: 'paths', patterns: ['posthog/api/**', 'products/*/backend/api/**'], body: '\nBody text.\n' })
  })

  it('accepts a single glob string', () => {
    expect(ruleScope('---\npaths: "src/**/*.ts"\n---\nx')).toMatchObject({ kind: 'paths', patterns: ['src/**/*.ts'] })
  })

  it('frontmatter without paths always applies, minus the frontmatter', () => {
    expect(ruleScope('---\ndescription: style\n---\nUse tabs.')).toEqual({ kind: 'always', body: 'Use tabs.' })
  })

  it('reports YAML that does not parse as bad, keeping the body', () => {
    const scope = ruleScope("---\npaths: ['unclosed\n---\nBody")
    expect(scope.kind).toBe('bad')
    expect(scope.body).toBe('Body')
  })

  it('reports a paths value that is not globs as bad', () => {
    expect(ruleScope('---\npaths: 42\n---\nx').kind).toBe('bad')
    expect(ruleScope('---\npaths: []\n---\nx').kind).toBe('bad')
    expect(ruleScope('---\npaths:\n  - a: b\n---\nx').kind).toBe('bad')
  })

  it('reports frontmatter that is not a mapping as bad', () => {
    expect(ruleScope('---\n- a\n- b\n---\nx').kind).toBe('bad')
  })

  it('a leading --- with no closing line is a thematic break, not frontmatter', () => {
    expect(splitFrontmatter('---\nNo closing line here')).toEqual({ kind: 'none', body: '---\nNo closing line here' })
  })

  it('survives an alias bomb without expanding it', () => {
    const bomb = `---\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\nbody`
    expect(() => ruleScope(bomb)).not.toThrow()
    expect(ruleScope(bomb).kind).toBe('bad')
  })
})
