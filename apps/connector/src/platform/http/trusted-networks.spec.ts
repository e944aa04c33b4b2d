import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { INSIDE_NETWORKS } from '../config/listener-config.js';
import { routeSide } from './listener-gate.js';
import { bareAddress, TrustedNetworks } from './trusted-networks.js';

const request = (remoteAddress: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('TrustedNetworks', () => {
  const trusted = new TrustedNetworks([...INSIDE_NETWORKS, '203.0.113.0/24']);

  it('reads addresses as sockets and proxies write them', () => {
    expect(bareAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(bareAddress('"[2001:db8::1]:4711"')).toBe('2001:db8::1');
    expect(bareAddress('192.0.2.7:8080')).toBe('192.0.2.7');
    expect(bareAddress(' 10.0.0.1 ')).toBe('10.0.0.1');
    expect(bareAddress('unknown')).toBeNull();
    expect(bareAddress('_hidden')).toBeNull();
  });

  it('counts loopback, private and listed addresses as inside, nothing else', () => {
    for (const inside of [
      '127.0.0.1',
      '::1',
      '10.2.3.4',
      '172.20.0.5',
      '192.168.1.1',
      'fd00::1',
      '203.0.113.9',
    ])
      expect(trusted.includes(inside), inside).toBe(true);
    for (const outside of ['8.8.8.8', '172.32.0.1', '2001:db8::1', '198.51.100.1', null])
      expect(trusted.includes(outside), String(outside)).toBe(false);
  });

  it('tells a request from inside only when the peer and every forwarded address are inside', () => {
    expect(trusted.fromInside(request('127.0.0.1'))).toBe(true);
    expect(trusted.fromInside(request('::ffff:172.18.0.3', { 'x-forwarded-for': '10.0.0.7' }))).toBe(true);
    expect(trusted.fromInside(request('8.8.8.8'))).toBe(false);
    // A client cannot hide behind an inside address it adds itself: the proxy appends what it saw.
    expect(trusted.fromInside(request('127.0.0.1', { 'x-forwarded-for': '127.0.0.1, 8.8.4.4' }))).toBe(false);
    expect(
      trusted.fromInside(request('127.0.0.1', { forwarded: 'for="[2001:db8::5]:80";proto=https' })),
    ).toBe(false);
    expect(trusted.fromInside(request('127.0.0.1', { forwarded: 'for=unknown' }))).toBe(false);
    expect(trusted.fromInside(request('127.0.0.1', { 'x-real-ip': '8.8.4.4' }))).toBe(false);
    expect(trusted.fromInside(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.40' }))).toBe(true);
  });

  it('names the client: the peer, or behind a proxy of ours the address it saw', () => {
    expect(trusted.clientOf(request('8.8.8.8', { 'x-forwarded-for': '1.1.1.1' }))).toBe('8.8.8.8');
    expect(trusted.clientOf(request('127.0.0.1'))).toBe('127.0.0.1');
    expect(trusted.clientOf(request('10.0.0.2', { 'x-forwarded-for': '1.2.3.4, 8.8.4.4, 10.0.0.9' }))).toBe(
      '8.8.4.4',
    );
    expect(trusted.clientOf(request('10.0.0.2', { 'x-forwarded-for': '10.0.0.8, 10.0.0.9' }))).toBe(
      '10.0.0.8',
    );
  });
});

describe('routeSide', () => {
  it('lists what Shopify reaches as public, the probes on both, everything else private', () => {
    for (const path of ['/webhooks/shopify', '/auth/shopify', '/auth/shopify/callback', '/AUTH/Shopify'])
      expect(routeSide(path), path).toBe('public');
    for (const path of ['/health/ready', '/health/live', '/Health/Live/'])
      expect(routeSide(path), path).toBe('both');
    for (const path of [
      '/',
      '/admin/shops',
      '/Admin/Shops',
      '/admin/ui',
      '/admin/ui/queues/',
      '/metrics',
      '/docs',
      '/docs/swagger-ui.css',
      '/openapi.json',
      '/auth/shopifyx',
      '/healthz',
      '/health',
      '/health/',
      '/health/ready/x',
      '//admin/shops',
    ])
      expect(routeSide(path), path).toBe('private');
  });
});
