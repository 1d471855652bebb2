// HTTPS-over-TCP fetch for the kernel-TCP baseline: pins the origin's self-signed certificate by its SHA-256.
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';

export interface TcpFetchResult {
  status: number;
  bytes: number;
  /** True when `signal` ended the transfer before the body was complete. */
  aborted: boolean;
  tcpCongestion: string | null;
  contentType: string;
}

export function tcpFetch(url: string, certSha256Hex: string, onData: (chunk: Uint8Array) => void, range?: { start: number; end?: number }, signal?: AbortSignal): Promise<TcpFetchResult> {
  const expected = certSha256Hex.toLowerCase().replace(/[^0-9a-f]/g, '');
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (range) headers.range = `bytes=${range.start}-${range.end ?? ''}`;
    const req = request(url, { rejectUnauthorized: false, headers, agent: false }, (res) => {
      let bytes = 0;
      const finish = (aborted: boolean): void => resolve({
        status: res.statusCode ?? 0, bytes, aborted, tcpCongestion: (res.headers['x-tcp-congestion'] as string | undefined) ?? null,
        contentType: res.headers['content-type'] ?? '',
      });
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength;
        onData(chunk);
      });
      res.on('end', () => finish(false));
      // A caller's deadline ends the transfer: report what arrived so far (a bulk download of fixed duration).
      const onAbort = (): void => {
        finish(true);
        req.destroy();
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      res.on('error', reject);
    });
    // Verification by pinning: the certificate is self-signed, so trust exactly the one the origin announced.
    req.on('socket', (socket) => {
      socket.once('secureConnect', () => {
        const cert = (socket as TLSSocket).getPeerCertificate();
        const got = (cert.fingerprint256 ?? '').toLowerCase().replace(/[^0-9a-f]/g, '');
        if (got !== expected) req.destroy(new Error(`certificate SHA-256 ${got} does not match --cert-hash ${expected}`));
      });
    });
    req.on('error', reject);
    req.end();
  });
}
