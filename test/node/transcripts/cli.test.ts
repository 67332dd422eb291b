/** `npm run import -- <file.jsonl> --summary`, run in-process. */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runImportCli } from '../../../src-main/node/transcripts/cli'
import { FIXTURES } from '../../engine/transcripts/fixtures'

async function run(argv: string[]) {
  let out = ''
  let err = ''
  const code = await runImportCli(argv, { out: (t) => (out += t), err: (t) => (err += t), env: {} })
  return { code, out, err }
}

describe('import --summary', () => {
  it('prints the session totals as JSON', async () => {
    const { code, out, err } = await run([join(FIXTURES, 'spotter', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'), '--summary'])
    expect(err).toBe('')
    expect(code).toBe(0)
    const summary = JSON.parse(out)
    expect(summary).toMatchObject({
      session_id: '4d5611e5-241a-462a-8d15-5122611a9569',
      requests: 139,
      input_tokens: 177,
      cache_read_input_tokens: 11_618_567,
      cache_creation_input_tokens: 479_537,
      output_tokens: 28_755,
      skipped_lines: 0,
    })
    expect(summary.compactions).toEqual([expect.objectContaining({ trigger: 'auto', pre_tokens: 170_251 })])
    expect(summary.subagents.map((s: { id: string }) => s.id)).toEqual(['a2898e3', 'acompact-e1f845'])
    expect(summary.including_subagents.requests).toBe(139 + 12 + 1)
  })

  it('adds cost when given prices', async () => {
    let out = ''
    const code = await runImportCli(
      [join(FIXTURES, 'claude-code-viewer', '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'), '--summary'],
      { out: (t) => (out += t), err: () => {} },
      { price: (_model, u) => u.output_tokens / 1e6 },
    )
    expect(code).toBe(0)
    const summary = JSON.parse(out)
    expect(summary.cost_usd).toBeCloseTo(summary.output_tokens / 1e6, 4)
    expect(summary.unpriced_requests).toBe(0)
  })

  it('refuses to import into the store (not available) and unknown options', async () => {
    expect((await run([join(FIXTURES, 'spotter', 'short.jsonl')])).code).toBe(2)
    expect((await run([join(FIXTURES, 'spotter', 'short.jsonl'), '--summary', '--frobnicate'])).code).toBe(2)
    expect((await run(['--summary'])).code).toBe(2)
  })

  it('exits 1 with a message for a file it cannot read', async () => {
    const { code, err } = await run(['/nonexistent/x.jsonl', '--summary'])
    expect(code).toBe(1)
    expect(err).toMatch(/not_found/)
  })
})

describe('import --list', () => {
  it('lists sessions under the given projects folder', async () => {
    const { code, out } = await run(['--list', '--projects-dir', FIXTURES])
    expect(code).toBe(0)
    const listing = JSON.parse(out)
    const spotter = listing.sessions.filter((s: { project: string }) => s.project === 'spotter')
    expect(spotter.map((s: { session_id: string }) => s.session_id).sort()).toEqual([
      '4d5611e5-241a-462a-8d15-5122611a9569',
      'ae4a77f8-aedd-4bc1-888f-c94edc91af04',
      'fa812bfe-b295-4cca-9c2f-fdf01028cb46',
      'short',
      'subagent',
      'tool_heavy',
    ])
    expect(spotter.find((s: { session_id: string }) => s.session_id === 'short')).toMatchObject({ requests: 1, models: ['claude-opus-4-6'] })
  })
})

describe('import --store', () => {
  it('imports the session into the store of the data folder and prints what it wrote', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { openStore } = await import('../../../src-main/node/store')
    const home = mkdtempSync(join(tmpdir(), 'loupe-cli-store-'))
    try {
      let out = ''
      const code = await runImportCli([join(FIXTURES, 'spotter', 'tool_heavy.jsonl'), '--store'], { out: (t) => (out += t), err: () => {}, env: { LOUPE_HOME: home } })
      expect(code).toBe(0)
      const printed = JSON.parse(out) as { status: string; session_id: string; passes: number }
      expect(printed).toMatchObject({ status: 'imported', passes: 4 })
      const store = openStore(join(home, 'loupe.db'))
      expect(store.passes.list(printed.session_id).map((p) => p.source)).toEqual(['transcript', 'transcript', 'transcript', 'transcript'])
      store.close()
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})
