/** A sentence with the names it was given set apart (ui/isolate.ts). */
import { Fragment } from 'react'
import { isolateNames, type SentencePart } from './isolate'

/**
 * The parts of a sentence, each name in its own `<bdi>`. `dir="ltr"` for paths, which read from left to right
 * whatever letters their names hold (as the sidebar shows a project's folder); else each name takes the direction of
 * its own first letters.
 */
export function SentenceParts({ parts, dir }: { parts: ReadonlyArray<SentencePart>; dir?: 'ltr' }) {
  return (
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          <Fragment key={i}>{p}</Fragment>
        ) : (
          <bdi key={i} dir={dir}>
            {p.isolated}
          </bdi>
        ),
      )}
    </>
  )
}

/** `text`, the app's words around `names`, with each of those names set apart. */
export function WithNames({ text, names, dir }: { text: string; names: ReadonlyArray<string>; dir?: 'ltr' }) {
  return <SentenceParts parts={isolateNames(text, names)} dir={dir} />
}
