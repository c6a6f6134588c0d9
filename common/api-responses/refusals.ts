// What every call can answer: a refusal, and the plain "done" of a write. One schema per API
// answer, one module per resource in this folder: the handlers are type-checked against them
// (worker/api/respond.ts), the pages parse with them (app/api-client.ts), and so do our Node
// programs and the tests (common/api-client.ts). zod's small build, one module per resource:
// a page's bundle gets only the answers it reads (docs/decisions/016-api-contract-and-client.md).
import { z } from "../zod-mini.ts";

/**
 * Every refusal, whatever the call (4xx and 5xx): `code` and `params` for programs, `message`
 * for people in the caller's language (worker/http/http-error.ts). Codes are the API
 * catalogue's `error.*` keys and the hub's failures; a reader meets codes newer than itself.
 */
export const apiErrorSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string(),
  params: z.catchall(z.object({}), z.union([z.string(), z.number()])),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** Every successful answer: `success: true` beside what the call answers. */
export function successSchema<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.object({ success: z.literal(true), ...shape });
}

/** A write that needs nothing back but words: register, logout, deletions, status changes, assignments. */
export const messageResponseSchema = successSchema({ message: z.string() });

/**
 * A change of who may use a box (a member changed or removed, an invitation accepted, a box
 * relinked, an account deleted): saved in D1 either way. `hubConfirmed` says whether the box's
 * hub has already reloaded who may use it (pages that lost access closed); false: it is told
 * again every minute until it confirms (docs/security.md, "Who may use a box, everywhere at once").
 */
export const accessChangeResponseSchema = successSchema({
  message: z.string(),
  hubConfirmed: z.boolean(),
});
