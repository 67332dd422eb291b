/**
 * A refused call's result keeps what the user typed, and what a deny rule from the project's settings says, apart from
 * the permission engine's words (features/chat/denied-result.ts). The results are the engine's own, written here by it.
 */
import { describe, expect, it } from 'vitest'
import { decidePermission, NO_RULES, resolveApproval, type PermissionDecision, type PermissionRules } from '../../../src-main/engine/tools'
import { deniedResultParts } from '../../../src-renderer/features/chat/denied-result'

const ctx = { root: '/work/project' }
const said = (decision: PermissionDecision): string => {
  if (decision.kind !== 'deny') throw new Error(`expected a denial, got ${JSON.stringify(decision)}`)
  return decision.reason
}
const declined = (reason: string): string => {
  const asked = decidePermission({ name: 'bash', input: { command: 'make deploy' } }, 'build', NO_RULES, ctx)
  if (asked.kind !== 'ask') throw new Error('expected the call to be asked about')
  return said(resolveApproval(asked.request, { kind: 'deny', reason }, NO_RULES).decision)
}
const joined = (parts: ReturnType<typeof deniedResultParts>) => parts.map((p) => (typeof p === 'string' ? p : p.isolated)).join('')

describe("a refused call's result", () => {
  it("sets the reason the user typed apart from the engine's words, quotes and all", () => {
    for (const reason of ['never as root \u202Efoo.exe', 'say "please" first', 'لا تنشر من هنا']) {
      const text = declined(reason)
      const parts = deniedResultParts(text)
      expect(parts.filter((p) => typeof p !== 'string')).toEqual([{ isolated: reason }])
      expect(joined(parts)).toBe(text)
    }
  })

  it("sets a deny rule's pattern and reason apart, with or without a reason", () => {
    const rules: PermissionRules = { allow: [{ tool: 'bash', pattern: '*' }], deny: [{ tool: 'bash', pattern: 'git push', reason: 'pushing (to "main") is by hand \u202E' }, { tool: 'read_file', pattern: '**/.env' }] }
    const pushed = said(decidePermission({ name: 'bash', input: { command: 'git push origin main' } }, 'build', rules, ctx))
    const pushedParts = deniedResultParts(pushed)
    expect(pushedParts.filter((p) => typeof p !== 'string')).toEqual([{ isolated: 'git push' }, { isolated: 'pushing (to "main") is by hand \u202E' }])
    expect(joined(pushedParts)).toBe(pushed)
    const read = said(decidePermission({ name: 'read_file', input: { path: 'config/.env' } }, 'build', rules, ctx))
    const readParts = deniedResultParts(read)
    expect(readParts.filter((p) => typeof p !== 'string')).toEqual([{ isolated: '**/.env' }])
    expect(joined(readParts)).toBe(read)
  })

  it('shows any other result as it is', () => {
    const plan = said(decidePermission({ name: 'write_file', input: { path: 'a.ts', content: 'x' } }, 'plan', NO_RULES, ctx))
    expect(deniedResultParts(plan)).toEqual([plan])
  })
})
