// A QR code of one fixed size, enough for a box's sticker (`SINCHAI:<box id>:<claim code>`, 31
// bytes): version 3 (29 × 29 modules), error correction M (about 15 % of the symbol may be
// dirt or scratches), byte mode, up to 42 bytes, one Reed–Solomon block. Written here rather than
// taken as a dependency: it is one short text on one sticker (docs/decisions/033-installers.md).
// The steps follow ISO/IEC 18004: data bits, error-correction codewords, the function patterns,
// the data in its zig-zag, the mask with the lowest penalty, the format information.

const VERSION = 3;
export const QR_SIZE = VERSION * 4 + 17;
const DATA_CODEWORDS = 44;
const EC_CODEWORDS = 26;
export const QR_MAX_BYTES = 42;
/** Error correction level M's two bits in the format information. */
const LEVEL_M_BITS = 0b00;
const ALIGNMENT_CENTRE = 22;

/** Product in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1, QR's field. */
function gfMultiply(x: number, y: number): number {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

/** The generator polynomial of degree `degree`, highest coefficient dropped. */
function rsDivisor(degree: number): number[] {
  const result = new Array<number>(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j]!, root);
      if (j + 1 < degree) result[j]! ^= result[j + 1]!;
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

/** The error-correction codewords of `data`. */
export function reedSolomon(data: readonly number[], degree: number): number[] {
  const divisor = rsDivisor(degree);
  const result = new Array<number>(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ result.shift()!;
    result.push(0);
    divisor.forEach((coefficient, i) => {
      result[i]! ^= gfMultiply(coefficient, factor);
    });
  }
  return result;
}

/** The 44 data codewords: mode, count, bytes, terminator, padding. */
function dataCodewords(bytes: Uint8Array): number[] {
  const bits: number[] = [];
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, 8);
  for (const byte of bytes) put(byte, 8);
  const capacity = DATA_CODEWORDS * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const codewords: number[] = [];
  for (let i = 0; i < bits.length; i += 8)
    codewords.push(bits.slice(i, i + 8).reduce((byte, bit) => (byte << 1) | bit, 0));
  for (let pad = 0xec; codewords.length < DATA_CODEWORDS; pad ^= 0xec ^ 0x11) codewords.push(pad);
  return codewords;
}

/** The 15 format bits for level M and `mask`: BCH(15,5), then XOR 0x5412. */
export function formatBits(mask: number): number {
  const data = (LEVEL_M_BITS << 3) | mask;
  let remainder = data;
  for (let i = 0; i < 10; i++) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
  return ((data << 10) | remainder) ^ 0x5412;
}

const MASKS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

type Grid = boolean[][];

class QrSymbol {
  readonly modules: Grid = Array.from({ length: QR_SIZE }, () => new Array<boolean>(QR_SIZE).fill(false));
  readonly isFunction: Grid = Array.from({ length: QR_SIZE }, () => new Array<boolean>(QR_SIZE).fill(false));

  setFunction(x: number, y: number, dark: boolean) {
    this.modules[y]![x] = dark;
    this.isFunction[y]![x] = true;
  }

  drawFunctionPatterns() {
    for (let i = 0; i < QR_SIZE; i++) {
      this.setFunction(6, i, i % 2 === 0);
      this.setFunction(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [
      [3, 3],
      [QR_SIZE - 4, 3],
      [3, QR_SIZE - 4],
    ] as const) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          const distance = Math.max(Math.abs(dx), Math.abs(dy));
          if (x >= 0 && x < QR_SIZE && y >= 0 && y < QR_SIZE) this.setFunction(x, y, distance !== 2 && distance !== 4);
        }
      }
    }
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        this.setFunction(ALIGNMENT_CENTRE + dx, ALIGNMENT_CENTRE + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }
    this.drawFormat(0); // reserves the format areas; drawn again once the mask is chosen
  }

  drawFormat(mask: number) {
    const bits = formatBits(mask);
    const bit = (i: number) => ((bits >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i++) this.setFunction(8, i, bit(i));
    this.setFunction(8, 7, bit(6));
    this.setFunction(8, 8, bit(7));
    this.setFunction(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.setFunction(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) this.setFunction(QR_SIZE - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.setFunction(8, QR_SIZE - 15 + i, bit(i));
    this.setFunction(8, QR_SIZE - 8, true); // the dark module
  }

  drawCodewords(codewords: readonly number[]) {
    let i = 0;
    for (let right = QR_SIZE - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5; // the vertical timing pattern's column is skipped
      for (let vertical = 0; vertical < QR_SIZE; vertical++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          const upward = ((right + 1) & 2) === 0;
          const y = upward ? QR_SIZE - 1 - vertical : vertical;
          if (!this.isFunction[y]![x] && i < codewords.length * 8) {
            this.modules[y]![x] = ((codewords[i >>> 3]! >>> (7 - (i & 7))) & 1) === 1;
            i++;
          }
        }
      }
    }
  }

  applyMask(mask: number) {
    for (let y = 0; y < QR_SIZE; y++) {
      for (let x = 0; x < QR_SIZE; x++) {
        if (!this.isFunction[y]![x] && MASKS[mask]!(x, y)) this.modules[y]![x] = !this.modules[y]![x];
      }
    }
  }
}

/** The standard's penalty of a masked symbol: long runs, 2 × 2 blocks, finder-like runs, imbalance. */
export function penalty(modules: Grid): number {
  let score = 0;
  const lines = [modules, modules[0]!.map((_, x) => modules.map((row) => row[x]!))];
  for (const grid of lines) {
    for (const line of grid) {
      let run = 1;
      for (let i = 1; i <= line.length; i++) {
        if (i < line.length && line[i] === line[i - 1]) run++;
        else {
          if (run >= 5) score += 3 + (run - 5);
          run = 1;
        }
      }
      const text = line.map((dark) => (dark ? "1" : "0")).join("");
      for (const pattern of ["00001011101", "10111010000"]) {
        for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) score += 40;
      }
    }
  }
  for (let y = 0; y < QR_SIZE - 1; y++) {
    for (let x = 0; x < QR_SIZE - 1; x++) {
      const colour = modules[y]![x];
      if (colour === modules[y]![x + 1] && colour === modules[y + 1]![x] && colour === modules[y + 1]![x + 1])
        score += 3;
    }
  }
  const dark = modules.flat().filter(Boolean).length;
  score += 10 * Math.floor(Math.abs((dark * 100) / (QR_SIZE * QR_SIZE) - 50) / 5);
  return score;
}

/**
 * The modules of `text`'s QR code, row by row (true: dark), without the quiet zone. `mask`
 * forces one of the eight masks (for tests); by default the one with the lowest penalty.
 */
export function encodeQr(text: string, mask?: number): Grid {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > QR_MAX_BYTES) throw new Error(`A sticker's QR code holds at most ${QR_MAX_BYTES} bytes.`);
  const data = dataCodewords(bytes);
  const codewords = [...data, ...reedSolomon(data, EC_CODEWORDS)];
  const masked = (choice: number) => {
    const symbol = new QrSymbol();
    symbol.drawFunctionPatterns();
    symbol.drawCodewords(codewords);
    symbol.applyMask(choice);
    symbol.drawFormat(choice);
    return symbol.modules;
  };
  if (mask !== undefined) return masked(mask);
  let best = masked(0);
  let bestScore = penalty(best);
  for (let choice = 1; choice < 8; choice++) {
    const candidate = masked(choice);
    const score = penalty(candidate);
    if (score < bestScore) [best, bestScore] = [candidate, score];
  }
  return best;
}

/** The symbol as an SVG path (one unit a module), offset by `quiet` modules of quiet zone. */
export function qrPath(modules: Grid, quiet = 4): string {
  return modules
    .flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`M${x + quiet} ${y + quiet}h1v1h-1z`] : [])))
    .join("");
}
