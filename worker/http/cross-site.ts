// The one place that refuses state changes a browser was made to send from another site
// (CSRF and cross-site WebSocket hijacking), for pages and API alike (docs/security.md, "Web").
// A browser attaches our cookies to a form another site submits and to a socket another site
// opens, but always says where the request comes from: Origin on every POST and upgrade,
// Sec-Fetch-Site on every request.
import { en } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";
import { isApiRequest } from "../api/is-api-request.ts";
import { apiLanguage } from "../api/language.ts";
import { readCookie, SESSION_COOKIE } from "../auth/cookies.ts";
import { isSameOriginRequest } from "../auth/same-origin.ts";
import { apiError, refusalResponse } from "./http-error.ts";
import { languageOf } from "./request-language.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function isWebSocketUpgrade(request: Request): boolean {
  return request.headers.get("Upgrade")?.toLowerCase() === "websocket";
}

/**
 * Must this request prove it comes from our own pages? Every page form post must (pages are
 * only ever posted by our own forms, and a cross-site login, logout or language change is an
 * attack too). An API write or socket upgrade must when the browser authenticates it by
 * itself, with a session cookie; a caller that sends Authorization (a bearer token, a box's
 * Basic credentials) chose to, and no other site can make a browser do that.
 */
export function needsSameOrigin(request: Request): boolean {
  if (SAFE_METHODS.has(request.method) && !isWebSocketUpgrade(request)) return false;
  if (!isApiRequest(request)) return true;
  if (request.headers.has("Authorization")) return false;
  return (
    readCookie(request, SESSION_COOKIE.user) !== undefined || readCookie(request, SESSION_COOKIE.admin) !== undefined
  );
}

/** The refusal for a request that must come from our pages and does not, or null. */
export function crossSiteRefusal(request: Request): Response | null {
  if (!needsSameOrigin(request) || isSameOriginRequest(request)) return null;
  if (isApiRequest(request)) {
    return refusalResponse(apiError(403, "crossSite"), apiLanguage(request));
  }
  // No React Router here (the refusal comes before it): a plain page in the reader's language.
  const language = languageOf(request);
  const texts = language === "en" ? en : hi;
  const page = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>403</title></head><body><p>${texts["error.crossSite"]}</p><p><a href="/">${texts["error.home"]}</a></p></body></html>`;
  return new Response(page, { status: 403, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
