// The Worker: `/api/*` and every WebSocket upgrade go to the Hono API, everything else (every
// method, so form posts reach route actions) to React Router's server build; both behind the
// same checks (fetch-handler.ts).
import { createRequestHandler, RouterContextProvider } from "react-router";
import { createFetchHandler } from "./fetch-handler.ts";
import { cloudflareContext } from "./http/router-context.ts";
import { handleScheduled } from "./scheduled.ts";

export { AuthThrottle } from "../durable-objects/auth-throttle.ts";
export { DeviceHub } from "../durable-objects/device-hub.ts";

// Created once per isolate, not per request.
const handleDocumentRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

export default {
  fetch: createFetchHandler((request, env, ctx) => {
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env, ctx });
    return handleDocumentRequest(request, context);
  }),
  scheduled: (controller, env, ctx) => {
    ctx.waitUntil(handleScheduled(controller, env));
  },
} satisfies ExportedHandler<Env>;
