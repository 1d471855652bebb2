// Which of npm start's ports is already taken, found before anything is started, so a second npm start says so
// instead of failing deep inside the origin.
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

export interface PortUse {
  /** The option that sets it, e.g. --http-port. */
  option: string;
  host: string;
  port: number;
  protocol: 'tcp' | 'udp';
}

function takenMessage(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EADDRINUSE' || code === 'EACCES' ? code : null;
}

function tryTcp(host: string, port: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (e) => (takenMessage(e) ? resolve(takenMessage(e)) : reject(e)));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

function tryUdp(host: string, port: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', (e) => (takenMessage(e) ? resolve(takenMessage(e)) : reject(e)));
    socket.bind({ address: host, port, exclusive: true }, () => socket.close(() => resolve(null)));
  });
}

/** A message naming every taken port and what to do, or null when all are free. */
export async function takenPorts(uses: readonly PortUse[]): Promise<string | null> {
  const taken: string[] = [];
  for (const u of uses) {
    const why = await (u.protocol === 'tcp' ? tryTcp(u.host, u.port) : tryUdp(u.host, u.port));
    if (why) taken.push(`${u.protocol.toUpperCase()} port ${u.port} on ${u.host} (${u.option}) is taken${why === 'EACCES' ? ' (permission denied)' : ''}`);
  }
  if (taken.length === 0) return null;
  return `${taken.join('; ')}. Another npm start (or another program) is using it: stop that one, or choose free ports, e.g. npm start -- ${uses.map((u) => `${u.option} ${u.port + 1}`).join(' ')}`;
}
