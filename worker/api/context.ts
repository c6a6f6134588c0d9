import type { AuthenticatedUser } from "../auth/sessions.ts";
import type { PumpAccess } from "../services/pump-access.ts";

/** Bindings and per-request variables every API router shares. */
export type ApiEnv = {
  Bindings: Env;
  Variables: {
    user: AuthenticatedUser;
    /** The box in the path and what the caller is to it, set by `requirePump` (./require-auth.ts). */
    pump: PumpAccess;
    /** The request's validated input, for the admin audit trail (worker/api/admin-audit-middleware.ts). */
    auditInput?: unknown;
    /** What an admin write affects, set by its handler once known (worker/api/admin-audit-middleware.ts). */
    auditTarget?: string;
  };
};
