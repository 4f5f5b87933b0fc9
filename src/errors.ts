/**
 * Errors we expect and explain in one line (exit 2). Anything else is a bug and is rethrown
 * with its stack. Chain the underlying error with `{ cause }`.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Bad input: a malformed snapshot, teams map or repository file the run cannot do without. */
export class InputError extends Error {
  override name = 'InputError';
}

/** The service refused or failed in a way the run cannot recover from (auth, configuration). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A failed file operation in a word: its errno code (`ENOSPC`), else the error's message. */
export const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

export function isKnownError(error: unknown): error is UsageError | InputError | ApiError {
  return error instanceof UsageError || error instanceof InputError || error instanceof ApiError;
}
