import { createContext } from "react-router";
import type { AuthenticatedUser } from "../worker/services/page-session.ts";

/** Set by the user shell's middleware, so every page of the user area authenticates once. */
export const userContext = createContext<AuthenticatedUser>();
