/**
 * Model ids shown by their display names (model/model-names.ts), each name carrying its raw id as its tooltip: a
 * cause, a note or a header that names a model says "Sonnet 4.5", and a pointer resting on it reads
 * "claude-sonnet-4-5-20250929". The names are known from the first paint (decision 0055).
 */
import { Fragment, useMemo } from 'react'
import { modelNameOr, modelNameParts, withModelNames } from '../model/model-names'

/** A tooltip's text with model names, the ids beside them. */
export function tooltipWithNames(text: string): string {
  return withModelNames(text, true)
}

/** One model by its name, its id on hover. */
export function ModelName({ id }: { id: string }) {
  return (
    <span className="model-named" title={id} data-model-id={id}>
      {modelNameOr(id)}
    </span>
  )
}

/** A text with each model id it names shown by the model's name, its id on hover. */
export function ModelNamed({ text }: { text: string }) {
  const parts = useMemo(() => modelNameParts(text), [text])
  return (
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          <Fragment key={i}>{p}</Fragment>
        ) : (
          <span key={i} className="model-named" title={p.id} data-model-id={p.id}>
            {p.name}
          </span>
        ),
      )}
    </>
  )
}
