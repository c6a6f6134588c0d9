import type { AuthenticatedUser } from "../auth/sessions.ts";

/** Bindings and per-request variables every API router shares. */
export type ApiEnv = {
  Bindings: Env;
  Variables: { user: AuthenticatedUser };
};
