import { isIP } from 'node:net';
import type { EnvReader } from '#lib/config';

/** The private listener: the admin API, the web view, `/metrics` and `/docs` on a port of their own. */
export interface AdminListenerConfig {
  port: number;
  host: string;
}

/** A network as `CONNECTOR_ADMIN_TRUSTED_NETWORKS` lists it: an address and its prefix length. */
export interface Network {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/**
 * Networks always inside: loopback, the private IPv4 ranges (RFC 1918) and IPv6 unique local
 * addresses, where a reverse proxy beside the connector (compose, a cluster) connects from.
 */
export const INSIDE_NETWORKS: readonly string[] = [
  '127.0.0.0/8',
  '::1/128',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  'fc00::/7',
];

/**
 * `10.1.0.0/16`, `2001:db8::/32` or a single address (`203.0.113.7`, a whole-length prefix);
 * null when it is neither.
 */
export function parseNetwork(text: string): Network | null {
  const [address = '', prefixText, extra] = text.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const max = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null;
  return { address, prefix: Number(prefixText), family };
}

/**
 * `CONNECTOR_ADMIN_PORT` and `CONNECTOR_ADMIN_HOST`: the private listener, or null (one port
 * serves everything, the private routes only to requests from inside).
 */
export function readAdminListener(read: EnvReader, publicPort: number): AdminListenerConfig | null {
  const given = read.optionalString('CONNECTOR_ADMIN_PORT') !== undefined;
  const port = read.port('CONNECTOR_ADMIN_PORT', 0);
  const host = read.string('CONNECTOR_ADMIN_HOST', '127.0.0.1');
  if (!given) {
    if (read.optionalString('CONNECTOR_ADMIN_HOST') !== undefined) {
      read.problems.push('CONNECTOR_ADMIN_HOST is set but CONNECTOR_ADMIN_PORT is not');
    }
    return null;
  }
  if (port !== 0 && port === publicPort) {
    read.problems.push(`CONNECTOR_ADMIN_PORT must differ from PORT (${publicPort})`);
  }
  return { port, host };
}

/** `CONNECTOR_ADMIN_TRUSTED_NETWORKS`: comma-separated networks counted as inside besides `INSIDE_NETWORKS`. */
export function readTrustedNetworks(read: EnvReader): string[] {
  const listed = read
    .string('CONNECTOR_ADMIN_TRUSTED_NETWORKS', '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of listed) {
    if (parseNetwork(entry) === null) {
      read.problems.push(
        `CONNECTOR_ADMIN_TRUSTED_NETWORKS: "${entry}" is not an address or a network (203.0.113.0/24, 2001:db8::/32)`,
      );
    }
  }
  return [...INSIDE_NETWORKS, ...listed];
}
