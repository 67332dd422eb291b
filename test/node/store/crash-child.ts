/**
 * Child process for crash.test.ts: runs a scripted session against the embedded simulator, printing
 * `passes N` after every committed pass, until it has 50 passes or is killed.
 * argv: <dataDir> <projectDir>
 */
import { createApp } from '../../../src-main/node/app'

const [dataDir, projectDir] = process.argv.slice(2) as [string, string]
const PROMPTS = ['list the files', 'read README.md', 'grep for "hello"', 'replace "hello" with "hi" in notes.txt', 'read notes.txt', 'replace "hi" with "hello" in notes.txt']

async function main(): Promise<void> {
  process.env.LOUPE_SIM_PACE = 'instant'
  const app = await createApp({ host: 'browser', dataDir, loupeHome: dataDir, homeDir: projectDir })
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const r = await app.dispatch(name, input)
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`)
    return r.value as T
  }
  const project = await call<{ id: string }>('project.open', { path: projectDir })
  const session = await call<{ id: string }>('session.create', { projectId: project.id })
  await call('session.setMode', { sessionId: session.id, mode: 'auto' })
  let passes = 0
  app.events.subscribe((name) => {
    if (name === 'pass.completed') process.stdout.write(`passes ${++passes}\n`)
  })
  for (let turn = 0; passes < 50; turn++) {
    const ended = new Promise<void>((resolve) => {
      const off = app.events.subscribe((name) => {
        if (name === 'turn.ended') {
          off()
          resolve()
        }
      })
    })
    await call('run.start', { sessionId: session.id, text: PROMPTS[turn % PROMPTS.length] })
    await ended
  }
  process.stdout.write('done\n')
  await app.close()
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack}\n`)
  process.exit(1)
})
