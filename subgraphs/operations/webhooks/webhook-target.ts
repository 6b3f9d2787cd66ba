import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Where a webhook may be sent: the addresses a target names or resolves to, judged before
 * anything connects (server-side request forgery). Loopback, unspecified, private, CGNAT,
 * link-local, multicast, reserved and cloud-metadata addresses are refused, also when written
 * as an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 IPv6 address. `WEBHOOK_ALLOW_PRIVATE`
 * lifts the refusal (development, tests).
 */

/** An IPv4 range as `[first octets as a number, prefix length, why it is refused]`. */
type V4Range = readonly [network: string, prefix: number, reason: string];

const V4_REFUSED: readonly V4Range[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
  // Cloud metadata services outside the ranges above (169.254.169.254 is link-local; Alibaba's 100.100.100.200 is CGNAT).
  ['168.63.129.16', 32, 'cloud metadata'],
];

const v4Number = (address: string) => address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);

const V4_TABLE = V4_REFUSED.map(([network, prefix, reason]) => {
  const size = 2 ** (32 - prefix);
  const start = v4Number(network);
  return { start, end: start + size - 1, reason };
});

function v4Reason(address: string): string | null {
  const value = v4Number(address);
  return V4_TABLE.find((range) => value >= range.start && value <= range.end)?.reason ?? null;
}

/** The 8 groups of an IPv6 address (`::` expanded, a trailing dotted quad read as two groups), without zone. */
function v6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const value = v4Number(quad[1]!);
    text = `${text.slice(0, quad.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...fill, ...back];
}

const v4Of = (high: number, low: number) => `${high >>> 8}.${high & 0xff}.${low >>> 8}.${low & 0xff}`;

function v6Reason(address: string): string | null {
  const g = v6Groups(address);
  const zeroUpTo = (count: number) => g.slice(0, count).every((group) => group === 0);
  // IPv4 written in IPv6: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:AABB:CCDD::).
  if (zeroUpTo(5) && g[5] === 0xffff) return v4Reason(v4Of(g[6]!, g[7]!));
  if (zeroUpTo(6)) {
    if (g[6] === 0 && g[7] === 0) return 'unspecified';
    if (g[6] === 0 && g[7] === 1) return 'loopback';
    return v4Reason(v4Of(g[6]!, g[7]!));
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) return v4Reason(v4Of(g[6]!, g[7]!));
  if (g[0] === 0x2002) return v4Reason(v4Of(g[1]!, g[2]!));
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'private (unique local)';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'site-local';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && g[1] === 0x0db8) return 'reserved';
  if (first === 0x0100 && zeroUpTo(4)) return 'reserved';
  return null;
}

/** Why an IP address may not be a webhook's target (`loopback`, `private`, …), or null when it may. */
export function refusedAddress(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.replace(/%.*$/, ''));
  if (family === 4) return v4Reason(bare);
  if (family === 6) return v6Reason(bare);
  return 'not an IP address';
}

/** An address a target was checked against, to connect to exactly. */
export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

export class TargetRefused extends Error {
  override readonly name = 'TargetRefused';
}

/** How long a name may take to resolve. */
const LOOKUP_TIMEOUT_MS = 5000;

export interface TargetPolicy {
  /** `WEBHOOK_ALLOW_PRIVATE`: every address is allowed. */
  readonly allowPrivate: boolean;
  /** Name resolution; the system resolver unless a test gives another. */
  readonly resolve?: (hostname: string) => Promise<CheckedAddress[]>;
}

async function systemResolve(hostname: string): Promise<CheckedAddress[]> {
  const timeout = new Promise<never>((_resolve, reject) =>
    setTimeout(() => reject(new Error(`${hostname} did not resolve within ${LOOKUP_TIMEOUT_MS / 1000} s`)), LOOKUP_TIMEOUT_MS).unref(),
  );
  const found = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
}

/**
 * The address to send a webhook to: the URL's IP, or every address its name resolves to,
 * each checked (one refused address refuses the target, so round-robin answers cannot slip
 * one through); the first is the one to connect to. Throws `TargetRefused` with the reason.
 * URLs are parsed the WHATWG way, so `2130706433`, `0x7f.1` and `[::ffff:127.0.0.1]` are
 * already the addresses they stand for.
 */
export async function checkTarget(url: string, policy: TargetPolicy): Promise<CheckedAddress> {
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const family = isIP(hostname);
  let addresses: CheckedAddress[];
  if (family !== 0) addresses = [{ address: hostname, family: family === 6 ? 6 : 4 }];
  else {
    if (!policy.allowPrivate && (hostname === 'localhost' || hostname.endsWith('.localhost'))) {
      throw new TargetRefused(`${hostname} is a loopback name`);
    }
    addresses = await (policy.resolve ?? systemResolve)(hostname);
    if (addresses.length === 0) throw new Error(`${hostname} resolved to no address`);
  }
  if (!policy.allowPrivate) {
    for (const { address } of addresses) {
      const reason = refusedAddress(address);
      if (reason) {
        const article = /^[aeiou]/.test(reason) ? 'an' : 'a';
        throw new TargetRefused(`${family === 0 ? `${hostname} resolves to ` : ''}${address}, ${article} ${reason} address`);
      }
    }
  }
  return addresses[0]!;
}
