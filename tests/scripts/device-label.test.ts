// The box's sticker (`npm run device -- label`; docs/decisions/033-installers.md): the QR code
// encoder of common/qr-code.ts against known answers, and the SVG it draws.
import { describe, expect, it } from "vitest";
import { generateClaimCode } from "../../common/claim-codes.ts";
import { claimLabelText, parseClaimLabel } from "../../common/claim-label.ts";
import { encodeQr, formatBits, penalty, QR_MAX_BYTES, reedSolomon } from "../../common/qr-code.ts";
import { groupedClaimCode, labelSvg } from "../../scripts/lib/device-label.ts";

const STICKER = "SINCHAI:SNC-7K3Q9ZP2:ABCDEFGH23";

/**
 * The symbol of STICKER with mask 0, as python-qrcode 8.2 draws it (version 3, level M, byte
 * mode, no border): written down once from that independent encoder, which agreed with ours
 * module for module under all eight masks.
 */
const REFERENCE_MASK_0 = [
  "11111110000010100010001111111",
  "10000010101001000001101000001",
  "10111010000000010010101011101",
  "10111010001101001111001011101",
  "10111010111001001010001011101",
  "10000010000100111001001000001",
  "11111110101010101010101111111",
  "00000000001000010110000000000",
  "10101010011110001001000010010",
  "10110100000011011100001101010",
  "01100010001010111000111111011",
  "00111000001111101100001010011",
  "11100010110100110000011000110",
  "11110000110010110100010101110",
  "00001011010001000000100100111",
  "11100100100000010111001100000",
  "10101111111100001000001010100",
  "00100000000111011101101001010",
  "10010111001010111100101001111",
  "01110100011101101100001010001",
  "10010110100110111001111110101",
  "00000000111000110100100011100",
  "11111110011111000100101011111",
  "10000010001100000110100011001",
  "10111010111110000000111111010",
  "10111010001001000000000101100",
  "10111010101101001010011110001",
  "10000010011010000100110010010",
  "11111110100000000110111011111",
];

const asText = (modules: boolean[][]) => modules.map((row) => row.map((dark) => (dark ? "1" : "0")).join(""));

describe("the QR code encoder", () => {
  it("computes Reed-Solomon codewords as the standard's worked example does", () => {
    // "HELLO WORLD", version 1-M: its 16 data codewords and 10 error-correction codewords.
    const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
    expect(reedSolomon(data, 10)).toEqual([196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
  });

  it("writes the format information of level M as the standard's table does", () => {
    expect(formatBits(0).toString(2).padStart(15, "0")).toBe("101010000010010");
    expect(formatBits(5).toString(2).padStart(15, "0")).toBe("100000011001110");
  });

  it("draws a sticker's text module for module as an independent encoder does", () => {
    expect(asText(encodeQr(STICKER, 0))).toEqual(REFERENCE_MASK_0);
  });

  it("chooses the mask with the lowest penalty", () => {
    const chosen = penalty(encodeQr(STICKER));
    for (let mask = 0; mask < 8; mask++) expect(chosen).toBeLessThanOrEqual(penalty(encodeQr(STICKER, mask)));
  });

  it("refuses a text longer than the symbol holds", () => {
    expect(() => encodeQr("x".repeat(QR_MAX_BYTES + 1))).toThrow(/at most 42 bytes/);
    expect(encodeQr("x".repeat(QR_MAX_BYTES))).toHaveLength(29);
  });
});

describe("the sticker", () => {
  it("holds the box id and a claim code the installer's page reads back", () => {
    const code = generateClaimCode();
    expect(parseClaimLabel(claimLabelText("SNC-7K3Q9ZP2", code))).toEqual({
      deviceId: "SNC-7K3Q9ZP2",
      claimCode: code,
    });
    expect(parseClaimLabel("https://example.com")).toBeNull();
  });

  it("prints the QR code, the box id and the code in two groups, in Hindi and English", () => {
    const svg = labelSvg("SNC-7K3Q9ZP2", "ABCDEFGH23");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain(">SNC-7K3Q9ZP2<");
    expect(svg).toContain(`>${groupedClaimCode("ABCDEFGH23")}<`);
    expect(svg).toContain("क्लेम कोड");
    // Every dark module of the symbol is one square of the path.
    const dark = encodeQr(STICKER).flat().filter(Boolean).length;
    expect(svg.match(/h1v1h-1z/g)).toHaveLength(dark);
  });
});
