import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '../..')

describe('npm run simulator', () => {
  it('prints its base URL as the first line of stdout and answers there', async () => {
    const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'src-main/simulator/cli.ts'), '--port', '0', '--pace', 'instant'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      const firstLine = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8')
          const nl = out.indexOf('\n')
          if (nl >= 0) resolve(out.slice(0, nl))
        })
        child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)))
      })
      expect(firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const res = await fetch(`${firstLine}/v1/models`, { headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' } })
      expect(res.status).toBe(200)
    } finally {
      child.kill('SIGTERM')
    }
  })
})
