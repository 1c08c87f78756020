/**
 * The audit could not run (server did not start, timed out, bad config, unreadable class list).
 * The message says what failed; `hint` says what to try. Exit code 2.
 */
export class AuditError extends Error {
  override name = 'AuditError';
  constructor(
    message: string,
    readonly hint?: string,
    readonly details?: string,
  ) {
    super(message);
  }
}

/** A readable message from anything thrown, Error or not. */
export function getErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** One paragraph for a person: what failed, what to try, and the server's own words if any. */
export function describeError(error: unknown): string {
  if (error instanceof AuditError) {
    const parts = [error.message];
    if (error.hint) parts.push(error.hint);
    let text = parts.join(' ');
    if (error.details) text += `\n${error.details}`;
    return text;
  }
  return `The audit failed unexpectedly: ${getErrorMessage(error)}. This is a bug in mcp-annotation-auditor; please report it with this message.`;
}

/**
 * `promise`, marked as handled: work started now and awaited later (the base read while the
 * server boots) reports its failure where it is awaited, and never ends the process as an
 * unhandled rejection because it failed before anyone awaited it. Every promise derived from it
 * (`.then`) is a new promise that needs the same.
 */
export function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
