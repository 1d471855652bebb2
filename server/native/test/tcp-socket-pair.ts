// Test fixture: a real kernel TCP connection over 127.0.0.1 and the fds of its sockets, torn down even when a test fails.
import { once } from 'node:events';
import { type AddressInfo, type Socket, createConnection, createServer } from 'node:net';

/** The kernel fd of a connected net.Socket (Node keeps it on the libuv handle). */
export function fdOf(socket: Socket): number {
  const handle = (socket as unknown as { _handle?: { fd?: number } })._handle;
  if (typeof handle?.fd !== 'number' || handle.fd < 0) throw new Error('socket has no fd');
  return handle.fd;
}

/** Runs `body` with a connected pair: `client` dialled, `accepted` the server's end. */
export async function withConnectedSocket(body: (client: Socket, accepted: Socket) => Promise<void>): Promise<void> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const acceptedPromise = once(server, 'connection');
  const client = createConnection((server.address() as AddressInfo).port, '127.0.0.1');
  await once(client, 'connect');
  const [accepted] = (await acceptedPromise) as [Socket];
  try {
    await body(client, accepted);
  } finally {
    client.destroy();
    accepted.destroy();
    server.close();
  }
}

/** Writes `bytes` from `sender` and resolves once `receiver` has read them all. */
export async function sendThrough(sender: Socket, receiver: Socket, bytes: number): Promise<void> {
  let received = 0;
  const all = new Promise<void>((resolve) => receiver.on('data', (d: Buffer) => { received += d.byteLength; if (received >= bytes) resolve(); }));
  sender.write(Buffer.alloc(bytes, 7));
  await all;
}
