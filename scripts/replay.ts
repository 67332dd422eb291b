/**
 * `npm run replay -- <session.jsonl> [more.jsonl …] [--no-naive] [--ttl-1h] [--no-keep-warm] [--no-thinking] [--json]`: replays
 * recorded Claude Code sessions through Loupe's builder and the simulator, and prints the cached share of input
 * tokens — Loupe, Claude Code on the same session, the best possible (the limit), and a naive client — with Loupe's
 * misses by cause, and what each session cost: Loupe (its keep-warm pre-warms included, and apart), Claude Code from
 * its recorded usage, the naive client. See src-main/node/replay/cli.ts, replay.ts and docs/cache-attribution.md.
 */
import { runReplayCli } from '../src-main/node/replay/cli'

// No top-level await: package.json has no "type": "module", so tsx runs this file as CommonJS.
void runReplayCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  live: process.stderr.isTTY === true,
}).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    // Only a fault in the replay itself gets here (a file's own problems are reported by the CLI): keep its stack.
    process.stderr.write(`replay: ${err instanceof Error ? err.stack : String(err)}\n`)
    process.exitCode = 1
  },
)
