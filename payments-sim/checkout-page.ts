// The local gateway's checkout page (GET /pay/{linkId}), where a tester pays a payment link as a
// farmer would on Razorpay's page: by UPI, as an app's intent link on a phone and a QR code on a
// desktop (a narrow screen shows the one, a wide one the other), with three buttons: pay, fail
// (the UPI app declines) and abandon (the payer leaves). Plain forms: no script is needed.
// After paying, the browser goes back to the link's callback URL with Razorpay's query
// parameters and their signature (HMAC-SHA256 of "linkId|referenceId|status|paymentId" under
// the key secret); after abandoning, back to the callback URL with none.
import { encodeQr, QR_MAX_BYTES, QR_SIZE, qrPath } from "../common/qr-code.ts";
import { type GatewayCore, type SimLink, sign } from "./gateway-core.ts";

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The UPI intent a payer's app opens; short enough for the QR code the page draws. */
function upiIntent(link: SimLink): string {
  const intent = `upi://pay?pa=rzp@sim&am=${(link.amount / 100).toFixed(2)}`;
  return intent.length <= QR_MAX_BYTES ? intent : "upi://pay?pa=rzp@sim";
}

export function checkoutPage(link: SimLink, notice: string | null): string {
  const rupees = (link.amount / 100).toFixed(2);
  const intent = upiIntent(link);
  const quiet = 2;
  const size = QR_SIZE + quiet * 2;
  const open = link.status === "created";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ₹${rupees} · Local Razorpay</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:16px;max-width:480px;margin-inline:auto;color:#1b2733}
h1{font-size:1.2rem}.amount{font-size:2rem;font-weight:700}.notice{padding:8px;border-radius:6px;background:#fdecea}
.intent{display:block;text-align:center;padding:14px;border-radius:8px;background:#0b62c4;color:#fff;text-decoration:none;margin:12px 0}
.qr{display:none;margin:12px auto;width:200px;height:200px}
@media (min-width:700px){.intent{display:none}.qr{display:block}}
form{display:inline}button{min-height:48px;padding:0 16px;margin:4px 4px 4px 0;font-size:1rem}
.muted{color:#5a6b7b;font-size:.9rem}
</style></head><body>
<h1>Local Razorpay · UPI</h1>
<p>${escapeHtml(link.description)}</p>
<p class="amount" data-testid="gateway-amount">₹${rupees}</p>
<p class="muted">Payment link <code>${escapeHtml(link.id)}</code> · ${escapeHtml(link.status)}</p>
${notice ? `<p class="notice" role="alert" data-testid="gateway-notice">${escapeHtml(notice)}</p>` : ""}
${
  open
    ? `<a class="intent" href="${escapeHtml(intent)}">Pay with a UPI app</a>
<svg class="qr" viewBox="0 0 ${size} ${size}" role="img" aria-label="UPI QR code"><rect width="100%" height="100%" fill="#fff"/><path d="${qrPath(encodeQr(intent), quiet)}" fill="#000"/></svg>
<p class="muted">This is the local gateway: nothing is charged. Choose what the payer does.</p>
<form method="post" action="/pay/${escapeHtml(link.id)}/pay"><button type="submit" data-testid="gateway-pay">Pay ₹${rupees}</button></form>
<form method="post" action="/pay/${escapeHtml(link.id)}/fail"><button type="submit" data-testid="gateway-fail">Fail</button></form>
<form method="post" action="/pay/${escapeHtml(link.id)}/abandon"><button type="submit" data-testid="gateway-abandon">Abandon</button></form>`
    : `<p>This link is ${escapeHtml(link.status)}.</p>`
}
</body></html>`;
}

/** Where the browser goes after paying: the callback URL with Razorpay's parameters, signed. */
export function paidRedirect(core: GatewayCore, link: SimLink, paymentId: string): string | null {
  if (!link.callbackUrl) return null;
  const url = new URL(link.callbackUrl);
  const status = "paid";
  url.searchParams.set("razorpay_payment_id", paymentId);
  url.searchParams.set("razorpay_payment_link_id", link.id);
  url.searchParams.set("razorpay_payment_link_reference_id", link.referenceId);
  url.searchParams.set("razorpay_payment_link_status", status);
  url.searchParams.set(
    "razorpay_signature",
    sign(core.credentials.keySecret, `${link.id}|${link.referenceId}|${status}|${paymentId}`),
  );
  return url.toString();
}
