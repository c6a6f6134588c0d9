import type { Context } from "hono";
import type { z } from "../../common/zod.ts";
import { apiError } from "../http/http-error.ts";
import { auditInput } from "./admin-audit-middleware.ts";
import type { ApiEnv } from "./context.ts";

/** No request body of this API comes anywhere near this; bigger ones are refused unread. */
const MAX_JSON_BODY_BYTES = 16 * 1024;

/** Parses `data` with `schema`, or throws a 400 naming the first problem. */
export function parseInput<T>(schema: z.ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? String(issue.path[0]) : null;
  let message = issue?.message ?? "Invalid request.";
  if (field && issue?.code === "invalid_type" && issue.input === undefined && message.startsWith("Invalid input")) {
    message = `${field} is required.`; // zod's default words for a missing field
  } else if (field && /^[a-z]/.test(message)) {
    message = `${field} ${message}.`; // schema messages written as a predicate: "must be ..."
  }
  // The schema's own sentence is English; other readers get the field named in their words.
  throw apiError(400, "invalidInput", { field: field ?? "", detail: message });
}

/**
 * The request's JSON body, parsed with `schema`. Malformed JSON is a 400, never a 500. The
 * parsed body is kept for the admin audit trail, which records it for admin writes only.
 */
export async function readJsonBody<T>(c: Context<ApiEnv>, schema: z.ZodType<T>): Promise<T> {
  const length = Number(c.req.header("Content-Length") ?? 0);
  if (length > MAX_JSON_BODY_BYTES) throw apiError(413, "bodyTooLarge");
  // Decoded as Request.text() would (UTF-8, U+FFFD for bad bytes, a BOM dropped), but without
  // the runtime's console warning for a body whose Content-Type is not text: clients' wrong
  // content types are answered by the JSON check below, not logged once per request.
  const text = new TextDecoder().decode(await c.req.arrayBuffer());
  if (text.length > MAX_JSON_BODY_BYTES) throw apiError(413, "bodyTooLarge");
  let json: unknown;
  try {
    json = text.length === 0 ? {} : JSON.parse(text);
  } catch {
    throw apiError(400, "invalidJson");
  }
  const input = parseInput(schema, json);
  auditInput(c, input);
  return input;
}
