// Where the Worker may send a push message: the browsers' push services and nothing else. A
// subscription's endpoint is an address the browser hands us, so whoever saves one chooses where
// the Worker's request goes; without this check a farmer could make it open connections to
// loopback, the private network or a cloud's metadata service. Checked when a subscription is
// saved (400) and again before every send (a row stored before the check is skipped and deleted).

/**
 * The push services of the browsers farmers use, by host: Chrome, Android browsers, Samsung
 * Internet, Opera and Brave (Firebase Cloud Messaging), Firefox (Mozilla autopush), Safari
 * (Apple), Edge (Windows Push Notification Services). `.suffix` means any host under it.
 */
export const PUSH_SERVICE_HOSTS = [
  "fcm.googleapis.com",
  "push.services.mozilla.com",
  ".push.services.mozilla.com",
  ".push.apple.com",
  ".notify.windows.com",
] as const;

/** Names that are never a public host, whatever a resolver says. */
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home|lan|intranet|corp|private)$/;

/**
 * An IP literal, of any range: the URL parser has already turned 2130706433, 0x7f000001 and
 * 0177.0.0.1 into 127.0.0.1, and writes IPv6 (mapped IPv4 too) in brackets. Refusing every one
 * refuses loopback, private, link-local, carrier-grade NAT and metadata addresses alike.
 */
function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith("[") || /^[\d.]+$/.test(hostname);
}

function isPushServiceHost(hostname: string): boolean {
  return PUSH_SERVICE_HOSTS.some((allowed) =>
    allowed.startsWith(".") ? hostname.endsWith(allowed) && hostname.length > allowed.length : hostname === allowed,
  );
}

/**
 * The hosts a test run adds (`PUSH_TEST_HOSTS`, comma-separated `host` or `host:port`): the
 * tests' own push services on loopback or under `.test`. Only the test harness sets it
 * (vitest.config.ts, `scripts/start.ts --test-push-hosts` for Playwright); wrangler.toml never
 * does, and `npm run deploy` refuses an environment that does (scripts/lib/environments.ts).
 */
function isTestHost(url: URL, testHosts: string | undefined): boolean {
  if (!testHosts) return false;
  return testHosts
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .some((entry) => entry !== "" && (entry === url.host || entry === url.hostname));
}

/** Whether the Worker may post a push message to `endpoint`. */
export function isAllowedPushEndpoint(endpoint: string, testHosts: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username !== "" || url.password !== "") return false;
  if (isTestHost(url, testHosts)) return true;
  // Real push services answer on the https port; anything else is not them.
  if (url.port !== "") return false;
  const hostname = url.hostname.toLowerCase();
  if (isIpLiteral(hostname) || LOCAL_NAMES.test(hostname) || !hostname.includes(".")) return false;
  return isPushServiceHost(hostname);
}
