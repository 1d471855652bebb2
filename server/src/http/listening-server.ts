// What the origin's plain-HTTP control server and its HTTPS baseline share: binding with a clear error,
// the bound port, and a close that does not wait for keep-alive connections.
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '../log.ts';

type Listenable = HttpServer | HttpsServer;

export function listen(server: Listenable, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: unknown): void => reject(new Error(`cannot listen on ${host}:${port}: ${errorMessage(err)}`));
    server.once('error', onError);
    server.once('listening', () => {
      server.off('error', onError);
      resolve();
    });
    server.listen(port, host);
  });
}

export abstract class ListeningServer {
  protected constructor(protected readonly server: Listenable) {}

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
