// The Worker as the vitest plugin loads it: the real API app, DeviceHub and the checks in
// front of both (worker/fetch-handler.ts), without the React Router half (its server build
// only exists inside the React Router Vite plugin; Playwright tests the whole Worker).
import { createFetchHandler } from "../worker/fetch-handler.ts";
import { handleScheduled } from "../worker/scheduled.ts";

export { AuthThrottle } from "../durable-objects/auth-throttle.ts";
export { DeviceHub } from "../durable-objects/device-hub.ts";

export default {
  fetch: createFetchHandler(async () => new Response("React Router is not part of the worker tests", { status: 404 })),
  scheduled: (controller, env, ctx) => {
    ctx.waitUntil(handleScheduled(controller, env));
  },
} satisfies ExportedHandler<Env>;
