/**
 * An error with the HTTP status and user-facing message it should produce. The API's one
 * `onError` turns it into `{ success: false, message }`, plus `code` and `params` when the
 * refusal has a code (a program can act on those; `message` is for people); anything else
 * becomes a 500.
 */
export class HttpError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 426 | 429 | 500 | 502 | 503 | 504;
  readonly headers: Record<string, string>;
  readonly detail: { code: string; params: Record<string, unknown> } | null;

  constructor(
    status: HttpError["status"],
    message: string,
    headers: Record<string, string> = {},
    detail: { code: string; params: Record<string, unknown> } | null = null,
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.headers = headers;
    this.detail = detail;
  }
}

export const INVALID_TOKEN_MESSAGE = "Invalid or expired token.";
