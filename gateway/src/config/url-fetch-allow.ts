import ipaddr from 'ipaddr.js';
import { ConfigError } from './config-error.js';

/** One entry of `server.url_fetch_allow`: a network (an address is a /32 or /128) and, optionally, one port. */
export interface UrlFetchAllowEntry {
  /** CIDR, e.g. `127.0.0.1/32`, `10.0.0.0/8`, `fd00::/8`. */
  network: string;
  port?: number;
  /** As written in the config file, for messages. */
  source: string;
}

const WITH_PORT = /^(?:\[([^\]]+)\]|([0-9.]+)):(\d{1,5})$/;

/**
 * Parses `server.url_fetch_allow`: `127.0.0.1:9000`, `[::1]:8080`, `192.168.1.20`, `10.0.0.0/8`,
 * `fd00::/8`. Addresses only: a host name is checked by the addresses it resolves to.
 */
export function parseUrlFetchAllow(entries: string[]): UrlFetchAllowEntry[] {
  return entries.map((source) => {
    const text = source.trim();
    const withPort = WITH_PORT.exec(text);
    const address = withPort ? (withPort[1] ?? withPort[2]) : text;
    const port = withPort ? Number(withPort[3]) : undefined;
    if (port !== undefined && (port < 1 || port > 65535))
      throw new ConfigError(`server.url_fetch_allow: "${source}" has a port outside 1-65535`);
    if (ipaddr.isValidCIDR(address)) {
      const [network, bits] = ipaddr.parseCIDR(address);
      return { network: `${network.toString()}/${bits}`, port, source };
    }
    if (ipaddr.isValid(address) && (ipaddr.IPv4.isValidFourPartDecimal(address) || address.includes(':'))) {
      const parsed = ipaddr.process(address);
      return { network: `${parsed.toString()}/${parsed.kind() === 'ipv4' ? 32 : 128}`, port, source };
    }
    throw new ConfigError(
      `server.url_fetch_allow: "${source}" is not an IP address, CIDR network or address:port (e.g. "127.0.0.1:9000", "[::1]:8080", "10.0.0.0/8")`,
    );
  });
}
