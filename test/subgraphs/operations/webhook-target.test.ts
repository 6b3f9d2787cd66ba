import { describe, expect, it } from 'vitest';
import { checkTarget, refusedAddress, TargetRefused } from '../../../subgraphs/operations/webhooks/webhook-target.js';

/** Addresses only, judged as data: nothing here connects anywhere or resolves a name. */
describe('webhook target addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.254', 'shared (CGNAT)'],
    ['169.254.169.254', 'link-local'],
    ['168.63.129.16', 'cloud metadata'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:169.254.169.254]', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['fc00::1', 'private (unique local)'],
    ['fd00:ec2::254', 'private (unique local)'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
  ])('refuses %s as %s', (address, reason) => {
    expect(refusedAddress(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(refusedAddress(address)).toBeNull();
    },
  );

  const nothingResolves = { allowPrivate: false, resolve: () => Promise.reject(new Error('no name should be resolved here')) };

  it.each([
    ['http://127.0.0.1:9/hook', '127.0.0.1, a loopback address'],
    ['http://2130706433/hook', '127.0.0.1, a loopback address'],
    ['http://0x7f.1/hook', '127.0.0.1, a loopback address'],
    ['http://0.0.0.0/hook', '0.0.0.0, an unspecified address'],
    ['http://[::1]:8080/hook', '::1, a loopback address'],
    ['https://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1, a loopback address'],
    ['http://localhost:3000/hook', 'localhost is a loopback name'],
    ['http://api.localhost/hook', 'api.localhost is a loopback name'],
  ])('refuses %s without resolving or connecting', async (url, reason) => {
    await expect(checkTarget(url, nothingResolves)).rejects.toThrow(new TargetRefused(reason));
  });

  it('refuses a name when any address it resolves to is internal, and connects to the address it checked', async () => {
    const resolvesTo = (...addresses: string[]) => ({
      allowPrivate: false,
      resolve: async () => addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) })),
    });
    await expect(checkTarget('https://hooks.example.com/x', resolvesTo('93.184.215.14', '127.0.0.1'))).rejects.toThrow(
      'hooks.example.com resolves to 127.0.0.1, a loopback address',
    );
    await expect(checkTarget('https://hooks.example.com/x', resolvesTo('93.184.215.14'))).resolves.toEqual({
      address: '93.184.215.14',
      family: 4,
    });
  });

  it('allows every address with WEBHOOK_ALLOW_PRIVATE', async () => {
    await expect(checkTarget('http://[::1]:8080/hook', { allowPrivate: true })).resolves.toEqual({ address: '::1', family: 6 });
    await expect(checkTarget('http://2130706433/hook', { allowPrivate: true })).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });
});
