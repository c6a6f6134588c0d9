// GET /api/health (common/api-responses/refusals.ts says how these are used).
import { z } from "../zod-mini.ts";
import { successSchema } from "./refusals.ts";

const checkSchema = z.object({ ok: z.boolean(), ms: z.number() });

/** 200 when both checks pass; 503, in its own shape (not a refusal: no code), when either fails. */
export const healthResponseSchema = z.discriminatedUnion("success", [
  successSchema({ d1: checkSchema, hub: checkSchema }),
  z.object({ success: z.literal(false), message: z.string(), d1: checkSchema, hub: checkSchema }),
]);
