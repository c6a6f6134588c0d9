import type { ApiErrorBody } from "../../common/api-responses/refusals.ts";
import { translateApi } from "../../common/i18n/api.ts";
import type { ApiMessageKey } from "../../common/i18n/api-en.ts";
import type { MessageValues } from "../../common/i18n/catalogue.ts";
import type { Language } from "../../common/i18n/language.ts";

/** The API's own refusals by code: the `error.*` entries of the API catalogue. */
type CodeOf<Key> = Key extends `error.${infer Code}` ? Code : never;
export type ApiErrorCode = CodeOf<ApiMessageKey>;

type Status = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 426 | 429 | 500 | 502 | 503 | 504;

/**
 * A refusal: the HTTP status, a `code` with `params` a program can act on, and the words for
 * people, rendered in the reader's language only where the answer is written (the API's one
 * `onError`, a page's action, the audit trail's page). `message` is the English, for logs.
 * Throw `apiError(...)`; hub refusals come from `hubFailureError` with their own words.
 */
export class HttpError extends Error {
  readonly status: Status;
  readonly code: string;
  readonly params: MessageValues;
  readonly headers: Record<string, string>;
  readonly #words: (language: Language) => string;

  constructor(
    status: Status,
    code: string,
    params: MessageValues,
    headers: Record<string, string>,
    words: (language: Language) => string,
  ) {
    super(words("en"));
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.params = params;
    this.headers = headers;
    this.#words = words;
  }

  /** The words for a reader of `language`. */
  wordedIn(language: Language): string {
    return this.#words(language);
  }
}

/** A refusal's JSON body (`apiErrorSchema` of common/api-responses/refusals.ts), worded for a reader of `language`. */
export function refusalBody(error: HttpError, language: Language): ApiErrorBody {
  return { success: false, message: error.wordedIn(language), code: error.code, params: error.params };
}

/** A refusal as a whole answer, for the places that answer before (or without) the API's `onError`. */
export function refusalResponse(error: HttpError, language: Language): Response {
  return Response.json(refusalBody(error, language), { status: error.status, headers: error.headers });
}

/** One of the API's own refusals, worded from the API catalogue's `error.{code}`. */
export function apiError(
  status: Status,
  code: ApiErrorCode,
  params: MessageValues = {},
  headers: Record<string, string> = {},
): HttpError {
  return new HttpError(status, code, params, headers, (language) => translateApi(language, `error.${code}`, params));
}
