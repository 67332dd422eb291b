/**
 * `npm run import -- <session.jsonl> --summary`: a Claude Code session's totals as JSON, without the store.
 * See src-main/node/transcripts/cli.ts and docs/claude-code-import.md.
 */
import { costUsd } from '../src-main/node/model/models'
import { runImportCli } from '../src-main/node/transcripts/cli'

// No top-level await: package.json has no "type": "module", so tsx runs this file as CommonJS.
void runImportCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
}, { price: costUsd }).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    // Only a fault in the import itself gets here (the user's own mistakes are reported in a line): keep its stack.
    process.stderr.write(`import: ${err instanceof Error ? err.stack : String(err)}\n`)
    process.exitCode = 1
  },
)
