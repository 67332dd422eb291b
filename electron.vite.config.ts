import { resolve } from 'node:path'
import { readFileSync } from 'node:fs'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

const version = JSON.parse(readFileSync(resolve(__dirname, 'package.json'), 'utf8')).version as string
const define = { __LOUPE_VERSION__: JSON.stringify(version) }

export default defineConfig({
  main: {
    define,
    build: {
      // The same bundle runs in Electron's Node and, for browser mode (out/main/server.js), in plain Node 20.
      target: 'node20',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          server: resolve(__dirname, 'src-main/server/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can require only `electron`: bundle everything else (zod, the contract) into it.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    base: './',
    define,
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
  },
})
