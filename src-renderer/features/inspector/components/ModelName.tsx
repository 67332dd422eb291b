/**
 * Model ids shown by their display names (model/model-names.ts), each name carrying its raw id as its tooltip: a
 * cause, a note or a header that names a model says "Sonnet 4.5", and a pointer resting on it reads
 * "claude-sonnet-4-5-20250929". The names come from the settings' model table (read by the chat's model choice and
 * by the Cache view); before it is read, the ids are shown as they are.
 */
import { Fragment, useMemo } from 'react'
import { useSettingsStore } from '../../../state/settings'
import { modelNameOr, modelNameParts, withModelNames, type ModelEntry } from '../model/model-names'

/** The model table the names come from, or null before the settings are read. */
export function useModelTable(): ReadonlyArray<ModelEntry> | null {
  return useSettingsStore((s) => s.data?.models ?? null)
}

/** A tooltip's text with model names, the ids beside them. */
export function useWithModelNames(): (text: string) => string {
  const models = useModelTable()
  return useMemo(() => (text: string) => withModelNames(text, models, true), [models])
}

/** One model by its name, its id on hover. */
export function ModelName({ id }: { id: string }) {
  const models = useModelTable()
  return (
    <span className="model-named" title={id} data-model-id={id}>
      {modelNameOr(id, models)}
    </span>
  )
}

/** A text with each model id it names shown by the model's name, its id on hover. */
export function ModelNamed({ text }: { text: string }) {
  const models = useModelTable()
  const parts = useMemo(() => modelNameParts(text, models), [text, models])
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
