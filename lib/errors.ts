// Errors whose message is meant for the person who caused them. Anything else is a bug: it is
// logged, and the user sees a generic message with a request id (lib/actions/safe-action.ts).
export class UserError extends Error {
  readonly status: number = 400;
  readonly code: string = "bad_request";
  /** The input field the message is about, when there is one. */
  readonly field?: string;
  constructor(message: string, options: { field?: string } = {}) {
    super(message);
    this.field = options.field;
  }
}

export class UnauthorizedError extends UserError {
  override readonly status = 401;
  override readonly code = "unauthorized";
}

export class ForbiddenError extends UserError {
  override readonly status = 403;
  override readonly code = "forbidden";
}

export class NotFoundError extends UserError {
  override readonly status = 404;
  override readonly code = "not_found";
}

export class ConflictError extends UserError {
  override readonly status = 409;
  override readonly code = "conflict";
}

/** Refused by a rate limit; the message says when to try again. */
export class TooManyRequestsError extends UserError {
  override readonly status = 429;
  override readonly code = "rate_limited";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The line of an error message that says what happened (Prisma's messages start with a multi-line preamble). */
export const lastLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).trim().split("\n").at(-1) ?? "";

/** A refusal answered as it stands by the API routes and the MCP server (status, code, message, field). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
