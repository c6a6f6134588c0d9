// How every request is answered, before and around the two halves of the Worker: the Hono API
// (`/api/*` and every WebSocket upgrade) and the page handler. worker/index.ts passes React
// Router's handler; the worker tests pass a stand-in, so both run the same checks in front.
import { apiApp } from "./api/app.ts";
import { isApiRequest } from "./api/is-api-request.ts";
import { countingD1, type QueryCount, serverTiming } from "./db/query-count.ts";
import { crossSiteRefusal } from "./http/cross-site.ts";
import { withSecurityHeaders } from "./http/security-headers.ts";

export type PageHandler = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

export function createFetchHandler(handlePage: PageHandler): ExportedHandlerFetchHandler<Env> {
  return async (request, env, ctx) => {
    const refused = crossSiteRefusal(request);
    if (refused) return withSecurityHeaders(refused);
    // This request's own D1 round trips and time, told on its answer (worker/db/query-count.ts).
    const started = performance.now();
    const count: QueryCount = { queries: 0, milliseconds: 0 };
    const counted = { ...env, DB: countingD1(env.DB, count) };
    const response = withSecurityHeaders(
      isApiRequest(request) ? await apiApp.fetch(request, counted, ctx) : await handlePage(request, counted, ctx),
    );
    if (response.status !== 101) {
      response.headers.append("Server-Timing", serverTiming(count, performance.now() - started));
    }
    return response;
  };
}
