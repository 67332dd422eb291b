/**
 * `npm run simulator -- [--port N] [--pace instant|realistic|slow] [--seed S]`: runs the simulator alone, for any
 * Anthropic client. The first line of stdout is the base URL, so a script can read it.
 */
import { startSimulator } from './index'
import type { Pace } from './server'

function argValue(args: ReadonlyArray<string>, name: string): string | undefined {
  const i = args.indexOf(name)
  if (i >= 0) return args[i + 1]
  const inline = args.find((a) => a.startsWith(`${name}=`))
  return inline?.slice(name.length + 1)
}

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run simulator -- [--port N] [--pace instant|realistic|slow] [--seed S]\n`)
  process.exit(2)
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const portText = argValue(args, '--port') ?? '0'
  const port = Number(portText)
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`invalid --port ${portText}`)
  const paceText = argValue(args, '--pace') ?? 'realistic'
  if (paceText !== 'instant' && paceText !== 'realistic' && paceText !== 'slow') usage(`invalid --pace ${paceText}`)
  const seed = argValue(args, '--seed')
  const simulator = await startSimulator({ port, pace: paceText as Pace, ...(seed ? { seed } : {}) })
  process.stdout.write(`${simulator.baseUrl}\n`)
  process.stderr.write(`simulator: Anthropic Messages API on ${simulator.baseUrl} (pace ${paceText}); Ctrl+C stops it\n`)
  const stop = (): void => {
    void simulator.close().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

void main()
