// Test fixture: a real server and client over 127.0.0.1, torn down even when a test fails.
import {
  QuicClient,
  QuicServer,
  generateSelfSignedCert,
  type ClientOptions,
  type SelfSignedCert,
  type ServerOptions,
  type Session,
} from '../index.js';

export interface LoopbackPair {
  cert: SelfSignedCert;
  server: QuicServer;
  serverSession: Session;
  clientSession: Session;
  close(): void;
}

let sharedCert: SelfSignedCert | undefined;
export function testCert(): SelfSignedCert {
  sharedCert ??= generateSelfSignedCert(['localhost', '127.0.0.1'], 2);
  return sharedCert;
}

export async function openPair(
  options: {
    server?: Partial<Omit<ServerOptions, 'host' | 'port' | 'certPem' | 'keyPem'>>;
    client?: Partial<ClientOptions>;
    path?: string;
  } = {},
): Promise<LoopbackPair> {
  const cert = testCert();
  const server = await QuicServer.bind({
    host: '127.0.0.1',
    port: 0,
    certPem: cert.certPem,
    keyPem: cert.keyPem,
    ...options.server,
  });
  try {
    const accepted = server.accept();
    const clientSession = await QuicClient.connect(`https://127.0.0.1:${server.port}${options.path ?? '/test'}`, {
      certSha256Hex: cert.certSha256Hex,
      ...options.client,
    });
    const serverSession = await accepted;
    if (serverSession === null) throw new Error('server closed before accepting');
    return {
      cert,
      server,
      serverSession,
      clientSession,
      close() {
        clientSession.close(0, 'test done');
        server.close();
      },
    };
  } catch (error) {
    server.close();
    throw error;
  }
}

/** Receive until `count` datagrams arrived or `timeoutMs` passed without progress. */
export async function receiveDatagrams(session: Session, count: number, timeoutMs = 2000): Promise<Buffer[]> {
  const received: Buffer[] = [];
  while (received.length < count) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    const batch = await Promise.race([session.recvDatagrams(4096), timeout]);
    clearTimeout(timer);
    if (batch === null || batch.length === 0) break;
    received.push(...batch);
  }
  return received;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
