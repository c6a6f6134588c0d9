// The Worker: `/api/*` and every WebSocket upgrade go to the Hono API, everything else (every
// method, so form posts reach route actions) to React Router's server build.
import { createRequestHandler, RouterContextProvider } from "react-router";
import { apiApp } from "./api/app.ts";
import { isApiRequest } from "./api/is-api-request.ts";
import { cloudflareContext } from "./router-context.ts";
import { withSecurityHeaders } from "./security-headers.ts";

export { AuthThrottle } from "../durable-objects/auth-throttle.ts";
export { DeviceHub } from "../durable-objects/device-hub.ts";

// Created once per isolate, not per request.
const handleDocumentRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

export default {
  async fetch(request, env, ctx) {
    if (isApiRequest(request)) return withSecurityHeaders(await apiApp.fetch(request, env, ctx));
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env, ctx });
    return withSecurityHeaders(await handleDocumentRequest(request, context));
  },
} satisfies ExportedHandler<Env>;
