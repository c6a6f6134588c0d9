// The key a client address is throttled under. An IPv6 subscriber is normally given a whole
// /64 (2^64 addresses, rotated freely by privacy extensions), so keying by the full address
// would give one attacker unlimited fresh keys: IPv6 clients are keyed by their /64. IPv4
// addresses (and IPv4 written as IPv6, ::ffff:a.b.c.d) are keyed as they are.

/**
 * The throttling key for an address as Cloudflare reports it (`CF-Connecting-IP`), or null
 * for loopback: local mode reports 127.0.0.1 for every client, which tells nothing.
 */
export function clientAddressKey(reported: string): string | null {
  const address = reported.trim().toLowerCase();
  if (!address.includes(":")) return address.startsWith("127.") ? null : address;
  const hextets = expandIpv6(address.split("%")[0]!);
  // Not an address Cloudflare would send: key it verbatim rather than guess.
  if (!hextets) return address;
  const mappedIpv4 = hextets.slice(0, 5).every((hextet) => hextet === 0) && hextets[5] === 0xffff;
  if (mappedIpv4)
    return clientAddressKey(`${hextets[6]! >> 8}.${hextets[6]! & 0xff}.${hextets[7]! >> 8}.${hextets[7]! & 0xff}`);
  if (hextets.slice(0, 7).every((hextet) => hextet === 0) && hextets[7] === 1) return null;
  return `${hextets
    .slice(0, 4)
    .map((hextet) => hextet.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (with "::" and a trailing dotted IPv4), or null. */
function expandIpv6(address: string): number[] | null {
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === "") return [];
    const groups: number[] = [];
    const pieces = part.split(":");
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes(".")) {
        const octets = piece.split(".").map((octet) => (/^\d{1,3}$/.test(octet) ? Number(octet) : Number.NaN));
        if (octets.length !== 4 || octets.some((octet) => !(octet <= 255))) return null;
        groups.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
      } else {
        if (!/^[0-9a-f]{1,4}$/.test(piece)) return null;
        groups.push(Number.parseInt(piece, 16));
      }
    }
    return groups;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...Array<number>(missing).fill(0), ...tail] : null;
}
