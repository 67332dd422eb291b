import { it } from 'vitest'
import { openHarness } from './harness'
const API = Array.from({ length: 150 }, (_, i) => `export function handler${i}() { return { version: 2, route: '/v2/items/${i}' } }`).join('\n')
it('peek', async () => {
  const h = await openHarness({ files: { 'README.md': '# Demo\n\nThe API is versioned under /v2.\n', 'src/api.ts': API, 'package.json': '{ "name": "demo" }\n', '.loupe/config.toml': '[compaction]\nwindow = 8000\n' } })
  for (const text of ['read README.md', 'find "handler"', 'find "version"', 'read src/api.ts', 'read package.json']) {
    console.log(text, await h.send(text))
  }
  for (const e of h.entries()) console.log(e.seq, e.kind, JSON.stringify(e).slice(0, 250))
  const passes: any[] = await h.call('pass.list', { sessionId: h.sessionId })
  for (const p of passes) console.log(p.kind, p.status, JSON.stringify(p.usage))
  await h.close()
})
