import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { parseNetwork } from '../config/listener-config.js';

/** Headers in which a reverse proxy names the address it took a request from. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-real-ip'] as const;

/**
 * An address as a header or a socket writes it, bare: `"[2001:db8::1]:4711"` → `2001:db8::1`,
 * `192.0.2.7:8080` → `192.0.2.7`, `::ffff:127.0.0.1` → `127.0.0.1`; null when it is no address
 * (`unknown`, an obfuscated `_node`).
 */
export function bareAddress(raw: string): string | null {
  let text = raw.trim().replace(/^"(.*)"$/, '$1');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1] as string;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  text = text.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  if (mapped) text = mapped[1] as string;
  return isIP(text) === 0 ? null : text;
}

/** A header's comma-separated entries (repeated headers joined), empty ones left out. */
function entriesOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The `for=` values of an RFC 7239 `Forwarded` header. */
function forwardedFor(value: string | string[] | undefined): string[] {
  return entriesOf(value).flatMap((element) =>
    element
      .split(';')
      .map((pair) => pair.trim())
      .filter((pair) => /^for=/i.test(pair))
      .map((pair) => pair.slice(4)),
  );
}

/**
 * Which addresses are inside: loopback, the private ranges and `CONNECTOR_ADMIN_TRUSTED_NETWORKS`
 * (`HttpConfig.trustedNetworks`). Why one class: the private routes on a shared port and the
 * failed-authentication limit must agree on who the client is.
 */
export class TrustedNetworks {
  private readonly list = new BlockList();

  constructor(networks: readonly string[]) {
    for (const text of networks) {
      const network = parseNetwork(text);
      if (network) this.list.addSubnet(network.address, network.prefix, network.family);
    }
  }

  /** Whether an address (as `bareAddress` gives it) is in one of the networks. */
  includes(address: string | null): boolean {
    if (address === null) return false;
    return this.list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * Whether a request comes from inside: the connection's peer and every address that
   * `X-Forwarded-For`, `Forwarded` (`for=`) and `X-Real-IP` name are inside. A client can add
   * addresses to those headers but cannot take out the one its proxy appends, so one outside
   * address anywhere, or an entry that is no address, makes the request come from outside.
   */
  fromInside(req: IncomingMessage): boolean {
    if (!this.includes(bareAddress(req.socket.remoteAddress ?? ''))) return false;
    const named = [
      ...FORWARDING_HEADERS.flatMap((name) => entriesOf(req.headers[name])),
      ...forwardedFor(req.headers.forwarded),
    ];
    return named.every((entry) => this.includes(bareAddress(entry)));
  }

  /**
   * The client's address: the connection's peer, or, when the peer is inside (a proxy of
   * ours), the right-most `X-Forwarded-For` entry that is not: the address the last proxy of
   * ours saw (the entries left of it are whatever the client sent).
   */
  clientOf(req: IncomingMessage): string {
    const peer = bareAddress(req.socket.remoteAddress ?? '');
    if (peer === null || !this.includes(peer)) return peer ?? 'unknown';
    const chain = entriesOf(req.headers['x-forwarded-for']);
    for (let i = chain.length - 1; i >= 0; i -= 1) {
      const entry = chain[i] as string;
      const address = bareAddress(entry);
      if (!this.includes(address)) return address ?? entry.slice(0, 64);
    }
    return bareAddress(chain[0] ?? '') ?? peer;
  }
}
