// What a box's sticker says to the installer's camera: `SINCHAI:<box id>:<claim code>`. Apart
// from the claim code's schema (claim-codes.ts), so the page that scans it loads no zod.
/** What the sticker's QR code holds: `SINCHAI:<box id>:<claim code>`. */
export function claimLabelText(deviceId: string, code: string): string {
  return `SINCHAI:${deviceId}:${code}`;
}

/** A scanned sticker's box id and code, or null for anything else. */
export function parseClaimLabel(text: string): { deviceId: string; claimCode: string } | null {
  const match = /^SINCHAI:(SNC-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}):([23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{10})$/.exec(
    text.trim(),
  );
  return match ? { deviceId: match[1]!, claimCode: match[2]! } : null;
}
