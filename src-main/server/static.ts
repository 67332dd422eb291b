/**
 * Serves the built renderer (out/renderer) to the browser host's page. Only files inside that folder are ever
 * served: the request path is normalised and checked against the folder before any read.
 */
import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
}

export async function serveStatic(rootDir: string, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end()
    return
  }
  let pathname: string
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname)
  } catch {
    res.writeHead(400, headers).end('Bad request')
    return
  }
  if (pathname.includes('\0')) {
    res.writeHead(400, headers).end('Bad request')
    return
  }
  const relative = normalize(pathname === '/' ? '/index.html' : pathname).replace(/^([/\\])+/, '')
  const root = await realpath(rootDir).catch(() => rootDir)
  const file = join(root, relative)
  if (file !== root && !file.startsWith(root + sep)) {
    res.writeHead(403, headers).end('Forbidden')
    return
  }
  try {
    const real = await realpath(file)
    if (!real.startsWith(root + sep)) throw new Error('outside the renderer folder')
    const info = await stat(real)
    if (!info.isFile()) throw new Error('not a file')
    res.writeHead(200, {
      ...headers,
      'Content-Type': MIME[extname(real)] ?? 'application/octet-stream',
      'Content-Length': String(info.size),
      // Hashed asset names can be cached; index.html must always be fresh.
      'Cache-Control': relative === 'index.html' ? 'no-store' : 'public, max-age=31536000, immutable',
    })
    if (req.method === 'HEAD') {
      res.end()
      return
    }
    createReadStream(real).pipe(res)
  } catch {
    res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found')
  }
}
