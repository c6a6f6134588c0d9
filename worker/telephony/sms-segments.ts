// How many SMS a text costs (3GPP TS 23.038 and 23.040). A text written only in the GSM 7-bit
// alphabet goes as GSM-7: 160 characters in one SMS, 153 a part once it is split (the other 7
// carry the header that joins the parts). Any other character (all of Devanagari) sends the
// whole text as UCS-2: 70 in one SMS, 67 a part. Providers bill per part, and India's operators
// deliver Hindi only as UCS-2 ("Unicode" in Exotel's `EncodingType`), so a Hindi alert of 71
// characters costs two SMS.

/** The GSM 7-bit default alphabet: one septet each. (ESC, 0x1B, only introduces the extension table.) */
const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/** The extension table: an escape and the character, two septets each. */
const GSM_EXTENSION = "\f^{}\\[~]|€";

const basic = new Set(GSM_BASIC);
const extension = new Set(GSM_EXTENSION);

export type SmsEncoding = "gsm7" | "ucs2";

export type SmsSegments = {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
  /** How many SMS it goes as. */
  segments: number;
  /** What one SMS holds in this encoding, alone and as a part. */
  perSegment: { single: number; part: number };
};

const LIMITS: Record<SmsEncoding, SmsSegments["perSegment"]> = {
  gsm7: { single: 160, part: 153 },
  ucs2: { single: 70, part: 67 },
};

export function smsEncoding(text: string): SmsEncoding {
  for (const char of text) if (!basic.has(char) && !extension.has(char)) return "ucs2";
  return "gsm7";
}

/**
 * The text as the units a phone counts: a GSM-7 extension character is two septets that a split
 * never separates, a UCS-2 surrogate pair (an emoji) two code units that it never separates.
 */
function units(text: string, encoding: SmsEncoding): number[] {
  return Array.from(text, (char) => (encoding === "gsm7" ? (extension.has(char) ? 2 : 1) : char.length));
}

/** The encoding, the units and the number of SMS `text` is sent as. An empty text is one SMS. */
export function countSmsSegments(text: string): SmsSegments {
  const encoding = smsEncoding(text);
  const limits = LIMITS[encoding];
  const sizes = units(text, encoding);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= limits.single) return { encoding, units: total, segments: 1, perSegment: limits };
  // Filled part by part, since a character that does not fit whole starts the next part.
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > limits.part) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return { encoding, units: total, segments, perSegment: limits };
}
