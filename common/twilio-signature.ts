// Twilio's webhook signature (`X-Twilio-Signature`), on WebCrypto so that the Worker checks it
// and the local provider (telephony-sim/) makes it with the very same code. As documented at
// https://www.twilio.com/docs/usage/webhooks/webhooks-security ("Authenticate with signatures"):
// the full URL Twilio called (query string included), then every POST parameter sorted by name,
// each written as name followed by value with nothing between, HMAC-SHA1 keyed with the account's
// Auth Token, base64. tests/telephony/twilio-signature.test.ts checks it against Twilio's own
// worked example.

const encoder = new TextEncoder();

/** The string Twilio signs: the URL, then each parameter as name + value, sorted by name (then value). */
function signedText(url: string, params: Iterable<readonly [string, string]>): string {
  const sorted = [...params].sort(([nameA, valueA], [nameB, valueB]) =>
    nameA === nameB ? (valueA < valueB ? -1 : valueA > valueB ? 1 : 0) : nameA < nameB ? -1 : 1,
  );
  return url + sorted.map(([name, value]) => name + value).join("");
}

function hmacKey(authToken: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(authToken), { name: "HMAC", hash: "SHA-1" }, false, [usage]);
}

/** The `X-Twilio-Signature` value for a request to `url` with form parameters `params`. */
export async function twilioSignature(
  authToken: string,
  url: string,
  params: Iterable<readonly [string, string]>,
): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(authToken, "sign"),
    encoder.encode(signedText(url, params)),
  );
  let binary = "";
  for (const byte of new Uint8Array(mac)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Whether `signature` is Twilio's for this URL and these parameters. WebCrypto's HMAC verify
 * compares in constant time; a header that is not base64 of a SHA-1 MAC is simply wrong.
 */
export async function isTwilioSignatureValid(
  authToken: string,
  signature: string | null | undefined,
  url: string,
  params: Iterable<readonly [string, string]>,
): Promise<boolean> {
  if (!authToken || !signature || !/^[A-Za-z0-9+/]{27}=$/.test(signature)) return false;
  const mac = Uint8Array.from(atob(signature), (char) => char.charCodeAt(0));
  return crypto.subtle.verify("HMAC", await hmacKey(authToken, "verify"), mac, encoder.encode(signedText(url, params)));
}
