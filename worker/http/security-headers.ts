// Security headers (docs/security.md, "Web"). Pages get a CSP with a per-request nonce from
// app/entry.server.tsx; everything the Worker answers gets the rest here; static assets get
// the same from public/_headers (the assets are served without running the Worker).

/**
 * Where a page's plain form may send the browser besides our origin: the payment gateway's
 * page, which the recharge form's answer redirects to (docs/payments.md), and a browser checks
 * a form's redirects against form-action too. Razorpay's payment links are short links on
 * rzp.io that go on to razorpay.com; local mode's gateway is on loopback (plain http only, so
 * never in a deployed Worker's pages).
 */
const PAYMENT_FORM_TARGETS = ["https://rzp.io", "https://razorpay.com", "https://*.razorpay.com"];
const LOCAL_PAYMENT_FORM_TARGET = "http://127.0.0.1:*";

/** The page CSP: scripts only from our origin or carrying this response's nonce. */
export function pageContentSecurityPolicy(nonce: string, https: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    // Style attributes (a bar height, the pull-to-refresh indicator) cannot run code.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    // 'self' covers ws:/wss: to this host (the realtime socket).
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    ["form-action 'self'", ...PAYMENT_FORM_TARGETS, ...(https ? [] : [LOCAL_PAYMENT_FORM_TARGET])].join(" "),
    "object-src 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** JSON and everything else the Worker answers: nothing to run, nothing to frame. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

const COMMON_HEADERS: Record<string, string> = {
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/**
 * Adds the headers to a Worker response (not to a WebSocket upgrade, which has none to add).
 * Everything the Worker answers is made for one reader at one moment (a page with the farmer's
 * pump, a JSON answer with their data): `no-store` keeps it out of every cache, the browser's
 * back-forward and disk caches on a shared phone included. Static assets never reach this.
 */
export function withSecurityHeaders(response: Response): Response {
  if (response.status === 101 || response.webSocket) return response;
  const secured = new Response(response.body, response);
  for (const [name, value] of Object.entries(COMMON_HEADERS)) secured.headers.set(name, value);
  secured.headers.set("Cache-Control", "no-store");
  if (!secured.headers.has("Content-Security-Policy")) {
    secured.headers.set("Content-Security-Policy", API_CONTENT_SECURITY_POLICY);
  }
  return secured;
}
