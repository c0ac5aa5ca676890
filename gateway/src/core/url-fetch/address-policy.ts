import ipaddr from 'ipaddr.js';
import type { UrlFetchAllowEntry } from '../../config/url-fetch-allow.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** What each refused range is, in words a user recognises. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private network address',
  uniqueLocal: 'a private network address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  amt: 'a reserved address',
  as112: 'a reserved address',
  as112v6: 'a reserved address',
  orchid2: 'a reserved address',
  droneRemoteIdProtocolEntityTags: 'a reserved address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  deprecatedSiteLocal: 'a site-local address',
  discard: 'a discard-only address',
};
const LOCAL_NAT64: [ipaddr.IPv6, number] = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');

/** An address in canonical form: IPv4-mapped IPv6 (`::ffff:127.0.0.1`) becomes the IPv4 address it carries. */
function canonical(address: string): Address | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.process(bare);
}

/**
 * Client-given URLs are fetched only from public unicast addresses, unless `server.url_fetch_allow`
 * names the address (and port). Loopback, private, link-local, CGNAT, unspecified, multicast,
 * reserved, and the IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo) are refused.
 */
export class AddressPolicy {
  private readonly allow: { network: [Address, number]; port?: number }[];

  constructor(allow: UrlFetchAllowEntry[]) {
    this.allow = allow.map((entry) => ({ network: ipaddr.parseCIDR(entry.network), port: entry.port }));
  }

  /** Why the gateway will not connect to `address`:`port`, or undefined when it may. */
  refusal(address: string, port: number): string | undefined {
    const parsed = canonical(address);
    if (!parsed) return 'not an IP address';
    if (this.allowed(parsed, port)) return undefined;
    const range = parsed.range();
    if (range === 'unicast' && !(parsed.kind() === 'ipv6' && parsed.match(LOCAL_NAT64))) return undefined;
    return RANGE_NAMES[range] ?? (range === 'unicast' ? 'a NAT64 address' : `a ${range} address`);
  }

  private allowed(address: Address, port: number): boolean {
    return this.allow.some(
      ({ network, port: allowedPort }) =>
        address.kind() === network[0].kind() &&
        address.match(network) &&
        (allowedPort === undefined || allowedPort === port),
    );
  }
}

/** The address of a URL host that is an IP literal (`127.0.0.1`, `[::1]`), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : undefined;
}
