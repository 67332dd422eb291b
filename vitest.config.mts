import { defineConfig } from 'vitest/config'

// vitest does not read electron.vite.config.ts; without an explicit include it would also pick up the
// Playwright specs in e2e/ and fail on @playwright/test.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
