// The player page for a browser inside a linkem namespace, served from the namespace's own 127.0.0.1: a loopback page
// is a secure context, so WebTransport is allowed without a secure-origin browser flag (a page from the
// host's address inside the namespace is not). A small TCP relay inside the namespace forwards the page's port to the
// origin's HTTP port on the host side, so the page and /cert-hash still cross the emulated link as before; the media
// goes to the origin's own address (WebTransport by certificate hash, the TCP baseline over plain HTTP).
import type { ChildProcess } from 'node:child_process';
import type { LinkemShell } from '../linkem/src/driver/index.ts';

/** How long the relay may take to listen before the run fails with a clear message. */
const RELAY_READY_TIMEOUT_MS = 10_000;

// Runs in the namespace under the same node binary: listen on 127.0.0.1:PORT, pipe each connection to HOST:PORT.
const RELAY_SOURCE = `
const net = require('node:net');
const [port, host] = [Number(process.argv[1]), process.argv[2]];
let down = 0;
let told = 0;
setInterval(() => { if (down !== told) { told = down; process.stdout.write('down ' + down + '\\n'); } }, 100).unref();
const server = net.createServer((inbound) => {
  const outbound = net.connect(port, host);
  outbound.on('data', (d) => { down += d.length; });
  inbound.pipe(outbound).pipe(inbound);
  const end = () => { inbound.destroy(); outbound.destroy(); };
  inbound.on('error', end); outbound.on('error', end);
});
server.on('error', (e) => { process.stderr.write('relay: ' + e.message + '\\n'); process.exit(1); });
server.listen(port, '127.0.0.1', () => process.stdout.write('ready\\n'));
`;

export interface NamespacePage {
  /** http://127.0.0.1:PORT as seen from inside the namespace. */
  pageOrigin: string;
  /** Payload bytes the relay has carried from the origin to the page so far (the page, its scripts, /cert-hash):
   *  they crossed the emulated downlink but are no media; reported by the relay every 100 ms. */
  downBytes(): number;
  close(): void;
}

/** Starts the relay for the origin's HTTP port `httpPort` at `host` (the host side's address inside the namespace). */
export async function servePageInNamespace(shell: LinkemShell, host: string, httpPort: number): Promise<NamespacePage> {
  const child: ChildProcess = shell.spawn(process.execPath, ['-e', RELAY_SOURCE, String(httpPort), host], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errorText = '';
  child.stderr?.on('data', (d: Buffer) => { errorText += d.toString(); });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the page relay in namespace ${shell.namespace} did not listen within ${RELAY_READY_TIMEOUT_MS / 1000} s`)), RELAY_READY_TIMEOUT_MS);
    child.stdout?.on('data', (d: Buffer) => { if (d.toString().includes('ready')) { clearTimeout(timer); resolve(); } });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the page relay in namespace ${shell.namespace} exited (${code}): ${errorText.trim()}`)); });
  });
  let downBytes = 0;
  child.stdout?.on('data', (d: Buffer) => {
    for (const m of d.toString().matchAll(/^down (\d+)$/gm)) downBytes = Math.max(downBytes, Number(m[1]));
  });
  return { pageOrigin: `http://127.0.0.1:${httpPort}`, downBytes: () => downBytes, close: () => { child.kill('SIGTERM'); } };
}
