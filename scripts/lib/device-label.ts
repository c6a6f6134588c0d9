// A box's sticker as an SVG (`npm run device -- label`; docs/decisions/033-installers.md): the QR
// code of `SINCHAI:<box id>:<claim code>` for the installer's camera, and both written out for
// typing where there is no camera, in Hindi and English. 50 × 70 mm, black on white.
import { claimLabelText } from "../../common/claim-label.ts";
import { encodeQr, QR_SIZE, qrPath } from "../../common/qr-code.ts";

const QUIET = 4;

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The claim code in two groups of five, as the sticker prints it (typing ignores the space). */
export function groupedClaimCode(code: string): string {
  return `${code.slice(0, 5)} ${code.slice(5)}`;
}

export function labelSvg(deviceId: string, claimCode: string): string {
  const side = QR_SIZE + 2 * QUIET; // 37 modules, 1 mm each
  const line = (y: number, size: number, text: string, weight = "normal") =>
    `<text x="${side / 2}" y="${y}" font-size="${size}" font-weight="${weight}" text-anchor="middle" font-family="Noto Sans Devanagari, sans-serif">${escapeXml(text)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side + 13}mm" height="70mm" viewBox="-6.5 0 ${side + 13} 70">`,
    `<rect x="-6.5" width="${side + 13}" height="70" fill="#fff"/>`,
    `<path d="${qrPath(encodeQr(claimLabelText(deviceId, claimCode)), QUIET)}" fill="#000" shape-rendering="crispEdges"/>`,
    line(42, 4.2, deviceId, "bold"),
    line(49, 3.2, "क्लेम कोड · Claim code"),
    line(55, 4.2, groupedClaimCode(claimCode), "bold"),
    line(62, 2.6, "इंस्टॉलर के फ़ोन से स्कैन करें · Scan with the installer's phone"),
    line(66.5, 2.6, "एक ही बार चलता है · Works once"),
    "</svg>",
    "",
  ].join("\n");
}
