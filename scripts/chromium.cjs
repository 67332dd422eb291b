/**
 * Where Chromium for the e2e suite and the browser benchmarks comes from: PLAYWRIGHT_CHROMIUM_PATH, else Debian's
 * /usr/bin/chromium, else Playwright's own browser where `npx playwright install` has put one.
 */
const { existsSync } = require('node:fs')

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

function findChromium() {
  const fromEnv = process.env.PLAYWRIGHT_CHROMIUM_PATH
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  try {
    const { chromium } = require('playwright-core')
    const own = chromium.executablePath()
    if (own && existsSync(own)) return own
  } catch {
    // playwright-core not installed or no browser of its own
  }
  return null
}

const HOW_TO_GET_CHROMIUM =
  'No Chromium found for the e2e tests. Install one: on Debian/Ubuntu `sudo apt-get install -y chromium` ' +
  '(gives /usr/bin/chromium), or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium/Chrome executable, or run ' +
  '`npx playwright install chromium` where the network allows it.'

module.exports = { CHROMIUM_ARGS, findChromium, HOW_TO_GET_CHROMIUM }
