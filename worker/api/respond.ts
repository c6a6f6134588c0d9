import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "../../common/zod-mini.ts";

/**
 * Answers with `body` as JSON, checked by the type checker against the answer's schema in
 * common/api-responses/: a field the schema does not declare, or one of the wrong type, does
 * not compile. The schema is not run here: a motor command's answer should not pay for a parse
 * of values the Worker itself just built. The tests parse every answer they read with the same
 * schema, strictly (common/api-client.ts), which catches what types cannot (a spread that
 * brings undeclared fields along).
 */
export function respond<Schema extends z.ZodMiniType>(
  c: Context,
  _schema: Schema,
  body: NoInfer<z.input<Schema>>,
  status?: ContentfulStatusCode,
): Response {
  return c.json(body, status);
}
