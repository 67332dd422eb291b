/** The app version, injected at build time from package.json (see electron.vite.config.ts); "dev" under tsx. */
declare const __LOUPE_VERSION__: string | undefined
export const APP_VERSION: string = typeof __LOUPE_VERSION__ === 'string' ? __LOUPE_VERSION__ : 'dev'
