// Whether a host name or address is this machine's loopback: 127.0.0.0/8, ::1 (also written in
// brackets, in full, or IPv4-mapped) and localhost. Only a server bound there keeps demo tools
// such as the e-mail outbox to this machine.
import net from 'node:net';

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  if (name === 'localhost') return true;
  const family = net.isIP(name);
  if (family === 0) return false;
  return loopback.check(name, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a Host header (a name or address, and any port) names this machine's loopback. */
export function isLoopbackAuthority(authority: string | undefined): boolean {
  if (!authority) return false;
  try {
    return isLoopbackHost(new URL(`http://${authority}`).hostname);
  } catch {
    return false; // not a host at all
  }
}
