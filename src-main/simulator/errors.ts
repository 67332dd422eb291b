/**
 * Errors the simulator answers with, in the API's shape (docs/reference/anthropic-api.md §4.1):
 * `{"type":"error","error":{"type":…,"message":…},"request_id":…}`.
 */

export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error'

/** A request the simulator refuses. Thrown by validation, caught by the server and written as the error body. */
export class SimApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: ApiErrorType,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message)
    this.name = 'SimApiError'
  }
}

export function invalidRequest(message: string): SimApiError {
  return new SimApiError(400, 'invalid_request_error', message)
}

export function errorBody(errorType: ApiErrorType, message: string, requestId: string): string {
  return JSON.stringify({ type: 'error', error: { type: errorType, message }, request_id: requestId })
}
