// The one way a redirect target that came from input (a form field, a query parameter) is
// turned into a Location: only a path on this site, else the fallback.

const BASE = "http://same-origin.invalid";

/**
 * `value` if it is a path on this site, written as the URL parser reads it (so the Location
 * header is plain ASCII and means to the browser exactly what it meant here); otherwise
 * `fallback`. Browsers drop tabs and newlines from a URL and read a backslash as a slash, so
 * "/\t/evil.example" and "/\\evil.example" are other sites to them: any control character,
 * backslash or whitespace refuses the value outright rather than being cleaned up.
 */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u0020\u007f-\u009f\\\s]/u.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The parsed form must still be a single-slash path (dot segments could have made "//").
  return path.startsWith("/") && !path.startsWith("//") ? path : fallback;
}
