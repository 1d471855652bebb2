// One origin serving the built player, and a Chromium that trusts exactly that origin's HTTPS key (for the kernel-TCP
// baseline; WebTransport uses the certificate hash the page fetches). Issue 19 replaces the key pin with plain HTTP.
import { createHash, X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import type { Browser } from 'playwright-core';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import { launchChromium } from './chromium.ts';
import { mediaDir, playerDist, preparePlayerAndMedia } from './player-fixture.ts';

/** SHA-256 (base64) of the public key the TLS server at host:port presents. */
function spkiHashOf(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // Only reads the presented certificate; Chromium is then told to trust that key and nothing else.
    const socket = connect({ host, port, rejectUnauthorized: false }, () => {
      const der = socket.getPeerCertificate(true).raw;
      socket.end();
      resolve(createHash('sha256').update(new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' })).digest('base64'));
    });
    socket.on('error', reject);
  });
}

export async function startOriginAndChromium(cc = 'vivace'): Promise<{ origin: OriginProcess; browser: Browser }> {
  preparePlayerAndMedia();
  const origin = await startOriginProcess({ mediaDir, staticDir: playerDist, cc });
  try {
    const spki = await spkiHashOf(origin.host, origin.httpsPort);
    return { origin, browser: await launchChromium({ extraArgs: [`--ignore-certificate-errors-spki-list=${spki}`] }) };
  } catch (error) {
    await origin.stop();
    throw error;
  }
}
