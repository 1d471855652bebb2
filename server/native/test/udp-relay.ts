// Test fixture: a UDP relay on 127.0.0.1 between a QUIC client and server that can silence the client for a while: the
// server's datagrams wait (a client too busy to read them) and the client's are dropped (one too busy to send), and it
// counts what the server sent meanwhile (and can show a test every packet). The client must stay silent too: its
// probes reaching a server that has closed and forgotten the connection draw stateless resets, which wait behind the
// server's CONNECTION_CLOSE, and quinn's client then reports the reset ("reset by peer") rather than the close it read
// first (seen 1 in 15 on a loaded machine).
import assert from 'node:assert/strict';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { once } from 'node:events';

export interface UdpRelay {
  /** The port the client connects to. */
  port: number;
  /** From now on the server's datagrams wait and the client's are dropped. */
  hold(): void;
  /** Server datagrams waiting now. */
  heldCount(): number;
  /** Hands the waiting datagrams to the client in order and lets later ones through both ways. */
  release(): void;
  close(): void;
}

/** `observe` sees every UDP payload the relay receives, before it is forwarded, held or dropped. */
export async function startUdpRelay(serverPort: number, observe?: (fromClient: boolean, payload: Buffer) => void): Promise<UdpRelay> {
  const toClient: Socket = createSocket('udp4');
  const toServer: Socket = createSocket('udp4');
  toClient.bind(0, '127.0.0.1');
  toServer.bind(0, '127.0.0.1');
  await Promise.all([once(toClient, 'listening'), once(toServer, 'listening')]);
  let client: RemoteInfo | null = null;
  let held: Buffer[] | null = null;
  toClient.on('message', (msg, from) => {
    client = from;
    observe?.(true, msg);
    if (!held) toServer.send(msg, serverPort, '127.0.0.1');
  });
  toServer.on('message', (msg) => {
    observe?.(false, msg);
    if (held) held.push(msg);
    else if (client) toClient.send(msg, client.port, client.address);
  });
  return {
    port: toClient.address().port,
    hold() {
      held = [];
    },
    heldCount() {
      return held?.length ?? 0;
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const msg of waiting) if (client) toClient.send(msg, client.port, client.address);
    },
    close() {
      toClient.close();
      toServer.close();
    },
  };
}

/** The source connection ID length of a long-header packet, such as a client's first (RFC 9000 §17.2: flags, version,
 *  DCID length and DCID, then the SCID length). */
export function longHeaderScidBytes(packet: Buffer): number {
  assert.equal(packet[0]! & 0x80, 0x80, 'a long-header packet');
  return packet[6 + packet[5]!]!;
}
