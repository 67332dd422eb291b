import { grouped } from '../../../ui/format'
import { MAX_INSTRUCTION_FILE_BYTES } from '../../../../src-preload/contract'
import type { UnopenableFile } from '../unopenable'
import { PathName } from '../../../ui/Isolated'

/** In the editor's place: a file this view cannot edit, and why (unopenable.ts). A note, not an error. */
export function UnopenableNote({ file }: { file: UnopenableFile }) {
  return (
    <div className="files-unopenable" role="note" aria-label={`${file.path} cannot be edited here`} data-testid="unopenable-note" data-kind={file.kind}>
      <h2>
        <code>
          <PathName path={file.path} />
        </code>{' '}
        cannot be edited here
      </h2>
      <p>{file.why}</p>
      <dl>
        {file.absPath && (
          <>
            <dt>On disk</dt>
            <dd>
              <code>
                <PathName path={file.absPath} />
              </code>
            </dd>
          </>
        )}
        {file.kind === 'too_large' && (
          <>
            <dt>Limit</dt>
            <dd>1 MB ({grouped(MAX_INSTRUCTION_FILE_BYTES)} bytes) per file</dd>
          </>
        )}
      </dl>
    </div>
  )
}
