// Where the API may reach on an admin's word (Test connection, a saved mailbox, an OAuth2 token
// endpoint): public addresses, and the private ones the operators allow in MAILBOX_ALLOWED_NETWORKS.
// A host name is looked up once and every address it has is checked; the connection then goes to
// a checked address (lookupOf), so an answer that changes between check and connect is never used.
import { lookup as lookUp } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

type Family = 4 | 6;
export interface Address {
  address: string;
  family: Family;
}

/** A host and the checked addresses to connect to in its place. */
export interface Pinned {
  host: string;
  addresses: Address[];
}

/** A target the API will not reach: not on the public internet and outside the allowed networks. */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
  /** The mailbox's field that named it (host, token_url). */
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** A host name that could not be looked up. */
export class HostNotFound extends Error {
  override name = 'HostNotFound';
}

// Not reachable on the public internet (IANA's special-purpose registries): unspecified, private,
// shared (carrier NAT), loopback, link-local, documentation, benchmarking, multicast, reserved.
const nonPublicV4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
// IPv6 is public only inside 2000::/3 (global unicast), less the special blocks there: the rest of
// the space holds the unspecified and loopback addresses, IPv4-compatible and NAT64 forms,
// unique-local, link-local and multicast. (IPv4-mapped addresses are checked as the IPv4 address.)
const nonPublicV6: [string, number][] = [
  ['::', 3],
  ['4000::', 2],
  ['8000::', 1],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];
/**
 * One BlockList per family: Node checks an IPv4 address against IPv6 rules too (as ::ffff:a.b.c.d),
 * and ::/3 would then take in every IPv4 address.
 */
const blockLists = () => ({ 4: new BlockList(), 6: new BlockList() });
const nonPublic = blockLists();
for (const [net, prefix] of nonPublicV4) nonPublic[4].addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of nonPublicV6) nonPublic[6].addSubnet(net, prefix, 'ipv6');

const canonicalV6 = (address: string) => new URL(`http://[${address}]/`).hostname.slice(1, -1);

/** An IP address in one spelling: IPv6 canonical, an IPv4-mapped one as its IPv4 address. */
function normalAddress(text: string): Address | undefined {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(bare);
  if (family === 4) return { address: bare, family: 4 };
  if (family !== 6) return undefined;
  const canonical = canonicalV6(bare);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return { address: canonical, family: 6 };
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return { address: [high >> 8, high & 255, low >> 8, low & 255].join('.'), family: 4 };
}

/**
 * MAILBOX_ALLOWED_NETWORKS' ranges (CIDR, comma-separated; a bare address is that one address) in
 * a normal spelling, or an Error naming the first one that is not a range.
 */
export function networkRanges(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [net = '', prefixText, ...rest] = part.split('/');
      const max = isIP(net) === 4 ? 32 : 128;
      const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
      if (!isIP(net) || rest.length || !(prefix >= 0 && prefix <= max)) throw new Error(`"${part}" is not an address range such as 10.20.0.0/16 or fd00::/8`);
      const address = normalAddress(net)!;
      // An IPv4-mapped range (::ffff:10.0.0.0/104) is the IPv4 range it maps, as addresses are checked.
      if (isIP(net) === 6 && address.family === 4) return prefix >= 96 ? `${address.address}/${prefix - 96}` : `${canonicalV6(net)}/${prefix}`;
      return `${address.address}/${prefix}`;
    });
}

type Resolve = (host: string) => Promise<Address[]>;
const systemResolve: Resolve = async (host) => (await lookUp(host, { all: true, verbatim: true })) as Address[];

/** The targets the API may reach: public addresses and the allowed ranges. */
export class MailboxTargets {
  private readonly allowed = blockLists();

  /** `ranges` as networkRanges gives them; `resolve` looks a name up (the system's resolver). */
  constructor(
    ranges: readonly string[],
    private readonly resolve: Resolve = systemResolve,
  ) {
    for (const range of ranges) {
      const [net, prefix] = range.split('/') as [string, string];
      const family = isIP(net) === 6 ? 6 : 4;
      this.allowed[family].addSubnet(net, Number(prefix), family === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /** Whether an address may be reached. */
  reachable(address: Address): boolean {
    const type = address.family === 6 ? 'ipv6' : 'ipv4';
    return !nonPublic[address.family].check(address.address, type) || this.allowed[address.family].check(address.address, type);
  }

  /**
   * The host's addresses, every one checked: a TargetRefused when any is not public and outside
   * the allowed ranges (a name with one such address could be answered with it at connect time),
   * a HostNotFound when the name has none.
   */
  async pin(host: string, field = 'host'): Promise<Pinned> {
    const literal = normalAddress(host);
    let addresses: Address[];
    if (literal) addresses = [literal];
    else {
      try {
        addresses = (await this.resolve(host)).map((a) => normalAddress(a.address)!).filter(Boolean);
      } catch {
        addresses = [];
      }
      if (!addresses.length) throw new HostNotFound(`${host} could not be looked up.`);
    }
    const refused = addresses.find((a) => !this.reachable(a));
    if (refused) {
      const as = literal ? '' : ` (${refused.address})`;
      throw new TargetRefused(
        `${host}${as} is not on the public internet, and EJ Desk reaches a private, loopback or link-local address only inside MAILBOX_ALLOWED_NETWORKS, a setting of the API.`,
        field,
      );
    }
    return { host, addresses };
  }
}

/** A lookup for net, tls and https that answers the pinned addresses and never asks DNS again. */
export function lookupOf(pinned: Pinned): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = pinned.addresses.filter((a) => !family || a.family === family);
    const done = callback as (err: NodeJS.ErrnoException | null, address: string | Address[], family?: number) => void;
    if (!usable.length) return done(Object.assign(new Error(`${pinned.host} has no address of that family`), { code: 'ENOTFOUND' }), '', 4);
    if (options.all) return done(null, usable);
    done(null, usable[0]!.address, usable[0]!.family);
  };
}
