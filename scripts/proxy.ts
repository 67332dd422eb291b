/**
 * `npm run proxy -- [--port N] [--upstream URL|simulator]`: the capture proxy, recording any Anthropic-API agent's
 * exact requests into Loupe's store. See src-main/node/proxy/cli.ts and docs/proxy.md.
 */
import { startProxyCli } from '../src-main/node/proxy/cli'

// No top-level await: package.json has no "type": "module", so tsx runs this file as CommonJS.
void startProxyCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
}).then(
  (running) => {
    if ('exitCode' in running) {
      process.exitCode = running.exitCode
      return
    }
    const stop = () => {
      void running.stop().finally(() => process.exit(0))
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  },
  (err: unknown) => {
    // Only a fault in the proxy itself gets here (the user's own mistakes are reported in a line): keep its stack.
    process.stderr.write(`proxy: ${err instanceof Error ? err.stack : String(err)}\n`)
    process.exitCode = 1
  },
)
