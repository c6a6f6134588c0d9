// How every request is answered, before and around the two halves of the Worker: the Hono API
// (`/api/*` and every WebSocket upgrade) and the page handler. worker/index.ts passes React
// Router's handler; the worker tests pass a stand-in, so both run the same checks in front.
import { apiApp } from "./api/app.ts";
import { isApiRequest } from "./api/is-api-request.ts";
import { countingD1, type QueryCount, serverTiming } from "./db/query-count.ts";
import { rememberSeenBookmark, seenBookmarkCookie } from "./db/reads-that-may-lag.ts";
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
    rememberSeenBookmark(counted.DB, request);
    const response = withSecurityHeaders(
      isApiRequest(request) ? await apiApp.fetch(request, counted, ctx) : await handlePage(request, counted, ctx),
    );
    if (response.status !== 101) {
      if (count.wrote && response.status < 500) await rememberWrites(counted, request, response);
      response.headers.append("Server-Timing", serverTiming(count, performance.now() - started));
    }
    return response;
  };
}

/** Lets this browser's next reads that may lag see what this request wrote (worker/db/reads-that-may-lag.ts). */
async function rememberWrites(env: Env, request: Request, response: Response): Promise<void> {
  try {
    const cookie = await seenBookmarkCookie(env, request);
    if (cookie) response.headers.append("Set-Cookie", cookie);
  } catch (error) {
    // A write's answer stands without it: the browser's lists may then be seconds behind.
    console.error("D1: no bookmark after a write", error);
  }
}
