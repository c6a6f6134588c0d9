// How every request is answered, before and around the two halves of the Worker: the Hono API
// (`/api/*` and every WebSocket upgrade) and the page handler. worker/index.ts passes React
// Router's handler; the worker tests pass a stand-in, so both run the same checks in front.
import { apiApp } from "./api/app.ts";
import { isApiRequest } from "./api/is-api-request.ts";
import { crossSiteRefusal } from "./http/cross-site.ts";
import { withSecurityHeaders } from "./http/security-headers.ts";

export type PageHandler = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

export function createFetchHandler(handlePage: PageHandler): ExportedHandlerFetchHandler<Env> {
  return async (request, env, ctx) => {
    const refused = crossSiteRefusal(request);
    if (refused) return withSecurityHeaders(refused);
    if (isApiRequest(request)) return withSecurityHeaders(await apiApp.fetch(request, env, ctx));
    return withSecurityHeaders(await handlePage(request, env, ctx));
  };
}
