import { BlockList, isIP } from 'node:net';

/**
 * Who may drive the table from the display: the dealer's touches (confirm a step, call the floor, start
 * the next hand) come from the Pi's own screen, on loopback, or from a touch panel the config names. A
 * screen elsewhere on the network (surveillance, a floor office) may watch the public state, not act:
 * otherwise anyone who reaches the HTTP port could tick the procedure or start a hand.
 */
export function dealerTouches(addresses: readonly string[]): (ip: string) => boolean {
  const allowed = new BlockList();
  allowed.addSubnet('127.0.0.0', 8, 'ipv4');
  allowed.addAddress('::1', 'ipv6');
  for (const address of addresses) allowed.addAddress(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  return (ip) => {
    // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
    const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
    if (v4 !== undefined) return allowed.check(v4, 'ipv4');
    const family = isIP(ip);
    return family !== 0 && allowed.check(ip, family === 6 ? 'ipv6' : 'ipv4');
  };
}
