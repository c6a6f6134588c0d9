import { createContext } from "react-router";

/** What the worker entry hands every loader and action: the bindings and execution context. */
export type CloudflareContext = { env: Env; ctx: ExecutionContext };

export const cloudflareContext = createContext<CloudflareContext>();
