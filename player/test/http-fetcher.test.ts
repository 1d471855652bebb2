// The kernel-TCP pane's fetch path (HttpFetcher under our dash.js loader): a body cut short is a failed request that
// dash.js retries (status 0), never bytes handed on to be appended. Served by a real HTTP server on loopback, plus a
// response that claims to be complete while short of its Content-Length (what the length check itself is for).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createTransportLoader } from '../src/dash/transport-loader.ts';
import { HttpFetcher } from '../src/transport/http-fetcher.ts';

const SEGMENT_BYTES = 200_000;
const CUT_AT_BYTES = 70_000;

let server: Server;
let origin = '';

before(async () => {
  server = createServer((req, res) => {
    const body = Buffer.alloc(SEGMENT_BYTES, 7);
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': SEGMENT_BYTES });
    if (req.url?.startsWith('/whole')) {
      res.end(body);
      return;
    }
    // The connection resets partway (a peer or middlebox gone): the head and part of the body were sent.
    res.write(body.subarray(0, CUT_AT_BYTES), () => setTimeout(() => req.socket.destroy(), 20));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** One request through the loader as dash.js makes it; resolves at onloadend with what dash.js would read. */
function load(fetcher: HttpFetcher, path: string) {
  const errors: string[] = [];
  const loader = createTransportLoader(fetcher, { onError: (_url, message) => errors.push(message) })();
  const res: { status?: number; data?: unknown } = {};
  return new Promise<{ status?: number; data?: unknown; errors: string[] }>((resolve) => {
    const req = { url: origin + path, responseType: 'arraybuffer', customData: { onloadend: () => resolve({ ...res, errors }) } };
    loader.load(req as never, res as never);
  });
}

test('a whole body reaches dash.js with every byte', async () => {
  const r = await load(new HttpFetcher(origin), '/whole/seg-1-00001.m4s');
  assert.equal(r.status, 200);
  assert.equal((r.data as ArrayBuffer).byteLength, SEGMENT_BYTES);
  assert.deepEqual(r.errors, []);
});

test('a connection reset partway through the body: status 0 (dash.js retries), no data', async () => {
  const r = await load(new HttpFetcher(origin), '/cut/seg-1-00002.m4s');
  assert.equal(r.status, 0);
  assert.equal(r.data, undefined);
  assert.equal(r.errors.length, 1);
});

test('a body that ends cleanly short of its Content-Length: status 0 and the reason, no data', async (t) => {
  // The response a transport would hand over had it taken an early end for the end: nothing below HttpFetcher fails.
  t.mock.method(globalThis, 'fetch', async () => new Response(new Uint8Array(CUT_AT_BYTES), {
    status: 200, headers: { 'content-type': 'video/mp4', 'content-length': String(SEGMENT_BYTES) },
  }));
  const r = await load(new HttpFetcher(origin), '/abr/seg-1-00003.m4s');
  assert.equal(r.status, 0);
  assert.equal(r.data, undefined);
  assert.deepEqual(r.errors, [`/abr/seg-1-00003.m4s: the body ended after ${CUT_AT_BYTES} of its ${SEGMENT_BYTES} bytes`]);
});
