// `npm run icons:generate`: the app's icons for the web app manifest and the notifications,
// drawn here (a white water drop on the app's green) and written as PNG with Node's zlib, so no
// image tool is needed. "maskable" icons fill the whole square and keep the drop inside the
// central circle of 80 % that every launcher mask leaves visible; "any" icons are a rounded
// square on transparency. The PNGs in public/icons are committed; run this after a change here.
import { mkdirSync, writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const GREEN = [0x1f, 0x6f, 0x43] as const; // the theme colour (app/root.tsx)
const WHITE = [0xff, 0xff, 0xff] as const;
const SAMPLES = 4; // per axis: 16 samples a pixel, for smooth edges

type Shape = (x: number, y: number) => boolean;

/** A drop whose round part has radius `r` (fractions of the icon), its tip pointing up. */
function drop(r: number): Shape {
  const cx = 0.5;
  const cy = 0.5 + r * 0.45;
  const tipY = cy - r * 2.1;
  const distance = cy - tipY;
  const halfAngle = Math.asin(r / distance);
  const tangentY = tipY + Math.cos(halfAngle) * Math.cos(halfAngle) * distance;
  return (x, y) => {
    if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) return true;
    if (y < tipY || y > tangentY) return false;
    return Math.abs(x - cx) <= (y - tipY) * Math.tan(halfAngle);
  };
}

function roundedSquare(radius: number): Shape {
  return (x, y) => {
    const dx = Math.max(radius - x, 0, x - (1 - radius));
    const dy = Math.max(radius - y, 0, y - (1 - radius));
    return dx * dx + dy * dy <= radius * radius;
  };
}

/** RGBA pixels: `background` (or transparent outside it) in green, the drop in white. */
function draw(size: number, background: Shape, mark: Shape): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let inBackground = 0;
      let inMark = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES) / size;
          const y = (py + (sy + 0.5) / SAMPLES) / size;
          if (background(x, y)) {
            inBackground++;
            if (mark(x, y)) inMark++;
          }
        }
      }
      const coverage = inBackground / SAMPLES ** 2;
      const white = inBackground === 0 ? 0 : inMark / inBackground;
      const offset = (py * size + px) * 4;
      for (let channel = 0; channel < 3; channel++) {
        pixels[offset + channel] = Math.round(GREEN[channel]! * (1 - white) + WHITE[channel]! * white);
      }
      pixels[offset + 3] = Math.round(coverage * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function png(size: number, pixels: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // no filter
    rows.set(pixels.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", new Uint8Array()),
  ]);
}

export const ICONS = [
  { file: "icon-192.png", size: 192, background: roundedSquare(0.18), mark: drop(0.2) },
  { file: "icon-512.png", size: 512, background: roundedSquare(0.18), mark: drop(0.2) },
  // The safe zone is a circle of radius 0.4: the drop (tip to bottom 0.33 high) sits well inside.
  { file: "maskable-192.png", size: 192, background: () => true, mark: drop(0.16) },
  { file: "maskable-512.png", size: 512, background: () => true, mark: drop(0.16) },
] as const;

export function renderIcon(icon: (typeof ICONS)[number]): Buffer {
  return png(icon.size, draw(icon.size, icon.background, icon.mark));
}

if (import.meta.main) {
  const folder = new URL("../public/icons/", import.meta.url);
  mkdirSync(folder, { recursive: true });
  for (const icon of ICONS) {
    writeFileSync(new URL(icon.file, folder), renderIcon(icon));
    console.log(`public/icons/${icon.file}`);
  }
}
