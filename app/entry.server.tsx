import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { pageContentSecurityPolicy } from "../worker/services/page-request.ts";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  let shellRendered = false;
  // One nonce per response: React Router gives it to <Scripts>, <ScrollRestoration> and its
  // streamed scripts; the CSP allows no other inline script.
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const body = await renderToReadableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
    nonce,
    onError(error: unknown) {
      responseStatusCode = 500;
      // Errors before the shell rejects and are logged by React Router itself.
      if (shellRendered) console.error(error);
    },
  });
  shellRendered = true;
  // Crawlers get the whole page at once; people get it streamed.
  if (isbot(request.headers.get("user-agent") ?? "")) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Vite's dev server injects inline scripts of its own: the CSP is for built pages.
  if (!import.meta.env.DEV) {
    responseHeaders.set(
      "Content-Security-Policy",
      pageContentSecurityPolicy(nonce, new URL(request.url).protocol === "https:"),
    );
  }
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
