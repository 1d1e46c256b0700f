/** One problem with one field or key, in `error.details` of a 4xx answer. */
export interface ErrorDetail {
  /** Where the problem is: body, query, params or headers. */
  location?: 'body' | 'query' | 'params' | 'headers';
  /** Dotted path inside that location ("" for the whole value). */
  path: string;
  /** Machine-readable kind of problem (zod's issue code for validation). */
  issue: string;
  message: string;
}

/**
 * A known failure with a stable machine-readable `code` and an HTTP status. The global
 * exception filter answers it as `{ "error": { code, message, details? } }`; anything that is
 * not an ApiError (or a 4xx HttpException) is a bug and becomes a 500 with an errorId.
 */
export abstract class ApiError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;

  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
