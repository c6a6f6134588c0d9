// The web UI keeps its session in an HttpOnly cookie, one per area, so page scripts never
// see a token (safer than the spec's localStorage). API clients send `Authorization: Bearer`.
import type { Audience } from "./tokens.ts";

export const SESSION_COOKIE: Record<Audience, string> = {
  user: "sinchai_session",
  admin: "sinchai_admin_session",
};

/**
 * The name a cookie has on the wire. Over https every cookie of ours is `__Host-` prefixed: the
 * browser then takes it only with `Secure`, `Path=/` and no `Domain`, so no other site of the
 * same domain (a sibling subdomain, a plain-http page) can plant one the Worker would read.
 * Plain http is only local mode (a phone on the LAN), where browsers refuse the prefix.
 */
export function cookieName(request: Request, name: string): string {
  return isHttps(request) ? `__Host-${name}` : name;
}

function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

/** Our cookie `name` as this request's scheme names it (cookieName); an unprefixed one over https is not ours. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("Cookie");
  if (!header) return undefined;
  const wanted = cookieName(request, name);
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === wanted) {
      const value = part.slice(separator + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * A cookie only the server reads, on every path. `Secure` and `__Host-` whenever the page itself
 * is https (always in production); plain http is only local mode, where a Secure cookie would be
 * dropped by browsers reached over a LAN address.
 */
export function httpOnlyCookie(
  request: Request,
  name: string,
  value: string,
  options: { sameSite: "Strict" | "Lax"; maxAgeSeconds: number },
): string {
  return [
    `${cookieName(request, name)}=${encodeURIComponent(value)}`,
    "Path=/",
    "HttpOnly",
    `SameSite=${options.sameSite}`,
    `Max-Age=${options.maxAgeSeconds}`,
    ...(isHttps(request) ? ["Secure"] : []),
  ].join("; ");
}

export function sessionCookie(request: Request, audience: Audience, token: string, maxAgeSeconds: number): string {
  // The admin cookie is Strict: no admin action should ever start from another site.
  const sameSite = audience === "admin" ? "Strict" : "Lax";
  return httpOnlyCookie(request, SESSION_COOKIE[audience], token, { sameSite, maxAgeSeconds });
}

export function clearedSessionCookie(request: Request, audience: Audience): string {
  return sessionCookie(request, audience, "", 0);
}
