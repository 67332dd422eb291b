/**
 * The renderer's Content-Security-Policy, one definition for both hosts. `connect` lists what the page may connect
 * to besides itself (the browser host's WebSocket). No `unsafe-eval` anywhere; inline styles are allowed because
 * Monaco sets them at run time.
 */
export function contentSecurityPolicy(connect: ReadonlyArray<string> = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    `connect-src ${["'self'", ...connect].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ')
}
