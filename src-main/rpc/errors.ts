import type { ErrorCode } from '../../src-preload/contract'

/**
 * The one error a handler throws on purpose. The dispatcher turns it into `{ ok: false, error }`; any other
 * exception becomes `internal`, so a bug is visible as such and never crosses the boundary as a throw.
 */
export class RpcError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'RpcError'
  }
}
