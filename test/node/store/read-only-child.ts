/**
 * Child process for read-only.test.ts: opens the store file it is given and prints `opened`, or `refused: <why>`.
 * argv: <file>
 */
import { openDatabase } from '../../../src-main/node/store/database'

try {
  openDatabase(process.argv[2]!).close()
  console.log('opened')
} catch (err) {
  console.log(`refused: ${err instanceof Error ? err.message : String(err)}`)
}
