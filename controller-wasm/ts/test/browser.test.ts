// The package used unchanged from a Vite-built page in Debian's Chromium: the module loads (its .wasm is
// emitted and fetched by Vite's URL handling), and gives the same results there as in Node.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { loadControllerModule, runSimulation } from '../index.ts';
import { runScenario } from './browser-page/scenario.ts';

const PAGE_DIR = fileURLToPath(new URL('./browser-page/', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

function serve(root: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(join(root, req.url === '/' ? 'index.html' : decodeURIComponent((req.url ?? '/').split('?')[0]!)));
    if (!path.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = readFileSync(path);
      res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('a Vite-built page runs controllers and the simulator in Chromium with the same results as Node', { timeout: 180_000 }, async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'pcc-controller-page-'));
  let server: Server | undefined;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    await build({ root: PAGE_DIR, logLevel: 'error', build: { outDir, emptyOutDir: true, target: 'es2022' } });
    server = await serve(outDir);
    const address = server.address();
    assert.ok(address !== null && typeof address === 'object');
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${address.port}/`);
    await page.waitForFunction(() => document.getElementById('result')?.textContent !== 'running', null, { timeout: 60_000 });
    const fromPage = JSON.parse((await page.textContent('#result')) ?? '{}') as { ok: boolean; error?: string; telemetry: unknown; simulationJson: string };
    assert.ok(fromPage.ok, `page failed: ${fromPage.error}`);

    const mod = await loadControllerModule();
    assert.deepEqual(fromPage.telemetry, runScenario(mod), 'controller telemetry differs between Chromium and Node');
    const simulation = await runSimulation({ cc: ['vivace', 'cubic'], flows: 2, rateMbps: 20, durationS: 1, seed: 4 });
    assert.equal(fromPage.simulationJson, simulation.json, 'simulation differs between Chromium and Node');
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    rmSync(outDir, { recursive: true, force: true });
  }
});
