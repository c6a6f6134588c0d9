// The Worker as the vitest plugin loads it: the real API app and DeviceHub, without the
// React Router half (its server build only exists inside the React Router Vite plugin;
// Playwright tests the whole Worker).
import { apiApp } from "../worker/api/app.ts";
import { isApiRequest } from "../worker/api/is-api-request.ts";

export { AuthThrottle } from "../durable-objects/auth-throttle.ts";
export { DeviceHub } from "../durable-objects/device-hub.ts";

export default {
  fetch(request, env, ctx) {
    if (isApiRequest(request)) return apiApp.fetch(request, env, ctx);
    return new Response("React Router is not part of the worker tests", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
