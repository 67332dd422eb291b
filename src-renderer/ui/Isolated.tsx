/** A sentence with the names it was given set apart (ui/isolate.ts). */
import { Fragment } from 'react'
import { isolateNames, pathParts, type SentencePart } from './isolate'

/**
 * A path set apart from the words around it, read left to right whatever letters its names hold, and each of its
 * names set apart again inside it: a right-to-left name, or a direction override in a folder's name, turns that name
 * only. Isolated whole, an override in one folder's name would reverse every name after it up to the file's.
 */
export function PathName({ path, className }: { path: string; className?: string }) {
  return (
    <bdi dir="ltr" className={className}>
      {pathParts(path).map((part, i) => (i % 2 === 1 || part === '' ? <Fragment key={i}>{part}</Fragment> : <bdi key={i}>{part}</bdi>))}
    </bdi>
  )
}

/**
 * The parts of a sentence, each name in its own `<bdi>`. `dir="ltr"` for paths, which read from left to right
 * whatever letters their names hold (as the sidebar shows a project's folder), each of their names set apart
 * (PathName); else each name takes the direction of its own first letters.
 */
export function SentenceParts({ parts, dir }: { parts: ReadonlyArray<SentencePart>; dir?: 'ltr' }) {
  return (
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          <Fragment key={i}>{p}</Fragment>
        ) : dir === 'ltr' ? (
          <PathName key={i} path={p.isolated} />
        ) : (
          <bdi key={i}>{p.isolated}</bdi>
        ),
      )}
    </>
  )
}

/** `text`, the app's words around `names`, with each of those names set apart. */
export function WithNames({ text, names, dir }: { text: string; names: ReadonlyArray<string>; dir?: 'ltr' }) {
  return <SentenceParts parts={isolateNames(text, names)} dir={dir} />
}
