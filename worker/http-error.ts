/**
 * An error with the HTTP status and user-facing message it should produce. The API's one
 * `onError` turns it into `{ success: false, message }`; anything else becomes a 500.
 */
export class HttpError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 426 | 429 | 500 | 502 | 503 | 504;
  readonly headers: Record<string, string>;

  constructor(status: HttpError["status"], message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.headers = headers;
  }
}

export const INVALID_TOKEN_MESSAGE = "Invalid or expired token.";
