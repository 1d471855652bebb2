// npm start (scripts/start.mjs hands over here): the sample media, then either the origin on 127.0.0.1 serving the
// player (loopback, the default), or `--network NAME`: emulated links (linkem namespaces, each with an origin inside)
// between the browser on the host and the media, the page served on the host with GET /network describing them.
// Everything started here stops on Ctrl-C, SIGTERM, SIGHUP, when npm start is killed (launcher-watch.ts), and
// even when this process is SIGKILLed (origins hold a parent-death signal, forwarders clean up when their stdin
// closes; the next start reclaims what a killed forwarder left).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentFor, prepareMedia } from '@pcc-stream/bench/harness/media';
import type { Scenario } from '@pcc-stream/bench/harness/scenario';
import { PreflightError, preflight, reclaimLinkem } from '@pcc-stream/bench/linkem';
import {
  NETWORK_STATUS_VERSION, linkIndexForPane, panesOnLink, type NetworkLink, type NetworkStatus, type NetworkStatusQuery,
} from '@pcc-stream/protocol';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import { ControlServer } from '@pcc-stream/server';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import { launchChain, watchLaunchChain } from './launcher-watch.ts';
import { NETWORK_BIN_S } from './link-monitor.ts';
import {
  DEFAULT_COMPETING_PLAYERS, LOOPBACK, NetworkChoiceError, competingNote, competingScenario, presetList, resolveNetwork, type NetworkChoice,
} from './network-presets.ts';
import { takenPorts, type PortUse } from './port-check.ts';
import { COMPETING_LINK_ID, ORIGIN_LIFELINE, startViewerLinks, stopViewerLinks, viewerLinkSpecs, type ViewerLink } from './viewer-links.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const playerDist = join(repoRoot, 'player', 'dist');
const mediaDir = join(repoRoot, '.cache', 'media');
const demoDir = join(repoRoot, '.cache', 'demo');
/** Copies of the link: one per pane of a side-by-side compare view (the page allows up to this many there). */
const DEFAULT_LINK_COPIES = 3;
const MONITOR_POLL_MS = 250;

const log = (event: string, detail: Record<string, unknown> = {}): void => {
  console.error(JSON.stringify({ t: new Date().toISOString(), component: 'start', event, ...detail }));
};

const defaults: Record<string, string> = {
  network: LOOPBACK, 'http-port': '8080', 'wt-port': '4433', 'tcp-port': '8081', 'https-port': '8443', cc: 'vivace', host: '127.0.0.1', links: String(DEFAULT_LINK_COPIES),
  competing: String(DEFAULT_COMPETING_PLAYERS),
};
const usage = `usage: npm start -- ${Object.entries(defaults).map(([k, v]) => `[--${k} ${v}]`).join(' ')}
  --network NAME|FILE|list  an emulated link between the browser and the media (a preset or a bench scenario file;
                            needs root); list prints the presets. Default: loopback, no emulation.
  --links N                 identical copies of the link, one per pane of a side-by-side compare view
  --competing N             players the competing panes' link is sized for, where the preset's rate is per player
                            (changing-rtt: N × 8.8 Mbit/s); npm start -- --network list says which presets`;

function parseArgs(argv: string[]): Record<string, string> {
  const options = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--help' || argv[i] === '-h') {
      console.log(usage);
      process.exit(0);
    }
    const key = argv[i]?.replace(/^--/, '');
    if (!key || !(key in defaults) || argv[i + 1] === undefined) {
      console.error(`unknown or incomplete option ${argv[i]}; see: npm start -- --help`);
      process.exit(2);
    }
    options[key] = argv[i + 1]!;
  }
  for (const k of ['http-port', 'wt-port', 'tcp-port', 'https-port']) {
    const n = Number(options[k]);
    if (!Number.isInteger(n) || n < 1 || n > 65535) {
      console.error(`--${k} ${options[k]} is not a port number`);
      process.exit(2);
    }
  }
  const copies = Number(options.links);
  if (!Number.isInteger(copies) || copies < 1 || copies > 4) {
    console.error(`--links ${options.links}: expected 1 to 4 copies`);
    process.exit(2);
  }
  const competing = Number(options.competing);
  // A compare view has 2 to 4 panes (player/src/config/session-params.ts).
  if (!Number.isInteger(competing) || competing < 2 || competing > 4) {
    console.error(`--competing ${options.competing}: expected 2 to 4 players`);
    process.exit(2);
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
if (options.network === 'list') {
  console.log(presetList());
  process.exit(0);
}
let choice: NetworkChoice;
try {
  choice = resolveNetwork(options.network!, (p) => userPath(p));
} catch (error) {
  console.error(error instanceof NetworkChoiceError ? error.message : `--network ${options.network}: ${(error as Error).message}`);
  process.exit(2);
}
const scenario: Scenario | null = choice.scenario;
const competingPlayers = Number(options.competing);
/** The competing panes' own link, when the copies are made for fewer players (network-presets.ts). */
const competingLinkScenario = scenario ? competingScenario(scenario, competingPlayers) : null;
if (scenario) {
  try {
    preflight();
  } catch (error) {
    if (!(error instanceof PreflightError)) throw error;
    console.error(`npm start -- --network ${options.network} puts the origin behind an emulated link (linkem), which needs network namespaces and TUN devices: ${error.message}.
Run it as root:  sudo npm start -- --network ${options.network}
or without emulation:  npm start`);
    process.exit(3);
  }
}
if (!existsSync(join(playerDist, 'index.html'))) {
  console.error(`The player is not built (${playerDist}); run \`npm run build\` first.`);
  process.exit(1);
}

const host = options.host!;
const [httpPort, wtPort, tcpPort, httpsPort] = (['http-port', 'wt-port', 'tcp-port', 'https-port'] as const).map((k) => Number(options[k]));
const portUses: PortUse[] = [{ option: '--http-port', host, port: httpPort!, protocol: 'tcp' }];
// With --network the origins listen inside their namespaces: only the page's port is on the host.
if (!scenario) {
  portUses.push({ option: '--wt-port', host, port: wtPort!, protocol: 'udp' }, { option: '--tcp-port', host, port: tcpPort!, protocol: 'tcp' },
    { option: '--https-port', host, port: httpsPort!, protocol: 'tcp' });
}
const taken = await takenPorts(portUses);
if (taken) {
  console.error(taken);
  process.exit(1);
}

// 1. Media: the sample sets (idempotent), and with --network the scenario's own set, as the bench plays it.
const media = spawnSync('npm', ['run', '-s', 'media'], { cwd: repoRoot, stdio: 'inherit' });
if (media.status !== 0) {
  log('media-failed', { status: media.status });
  process.exit(1);
}
if (scenario) await prepareMedia([scenario], mediaDir);

// 2. What a killed start left behind: its run folder, and namespaces of forwarders killed with it.
mkdirSync(demoDir, { recursive: true });
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
for (const entry of readdirSync(demoDir)) {
  if (/^\d+$/.test(entry) && !alive(Number(entry))) rmSync(join(demoDir, entry), { recursive: true, force: true });
}
if (scenario) {
  const reclaimed = await reclaimLinkem();
  if (reclaimed > 0) log('reclaimed', { linkem_instances: reclaimed });
}
const runDir = join(demoDir, String(process.pid));

// 3. Origins, links, page.
const clockZeroNs = process.hrtime.bigint();
const clockS = (): number => Number(process.hrtime.bigint() - clockZeroNs) / 1e9;
let loopbackOrigin: OriginProcess | null = null;
let links: ViewerLink[] = [];
let page: ControlServer | null = null;
let monitorTimer: NodeJS.Timeout | undefined;
let stopping = false;

async function stop(exitCode: number, why: string): Promise<never> {
  if (!stopping) {
    stopping = true;
    log('stopping', { why });
    clearInterval(monitorTimer);
    await page?.close();
    await loopbackOrigin?.stop();
    await stopViewerLinks(links);
    rmSync(runDir, { recursive: true, force: true });
    log('stopped');
  }
  process.exit(exitCode);
}
process.on('SIGINT', () => void stop(0, 'SIGINT'));
process.on('SIGTERM', () => void stop(0, 'SIGTERM'));
process.on('SIGHUP', () => void stop(0, 'SIGHUP'));
watchLaunchChain(launchChain(), (pid) => void stop(1, `npm start's process ${pid} is gone`));

function networkStatus(q: NetworkStatusQuery): NetworkStatus {
  const nowS = clockS();
  for (const l of links) l.monitor.poll(nowS);
  // The links the page's panes cross, each with its panes; all links when the page named no panes. Competing panes
  // (two or more) cross the competing link when there is one, else copy 1 as protocol's linkIndexForPane says.
  const competingLink = links.find((l) => l.id === COMPETING_LINK_ID);
  const copies = links.filter((l) => l !== competingLink);
  let used: Array<[ViewerLink, string[]]>;
  if (q.panes.length === 0) used = links.map((l) => [l, []]);
  else if (q.mode === 'competing' && q.panes.length > 1 && competingLink) used = [[competingLink, q.panes]];
  else {
    used = [...new Set(q.panes.map((_, i) => linkIndexForPane(q.mode, i)))].filter((i) => i < copies.length)
      .map((i) => [copies[i]!, panesOnLink(q.mode, q.panes, i)]);
  }
  const onCompeting = used.length === 1 && used[0]![0] === competingLink;
  const answerLinks: NetworkLink[] = used.map(([l, panes]) => {
    return {
      id: l.id, label: l.label,
      origin: {
        host: l.origin.host, webTransportPort: l.origin.webTransportPort, httpPort: l.origin.httpPort, httpsPort: l.origin.httpsPort,
        tcpPort: l.origin.tcpPort,
      },
      panes,
      capacity: l.monitor.capacitySince(q.sinceS),
      queue: l.monitor.queueSince(q.sinceS),
    };
  });
  const description = onCompeting && scenario ? `${choice.description}; ${competingNote(scenario, competingPlayers)}` : choice.description;
  return { version: NETWORK_STATUS_VERSION, preset: choice.name, description, mode: q.mode, nowS, binS: NETWORK_BIN_S, links: answerLinks };
}

try {
  if (!scenario) {
    loopbackOrigin = await startOriginProcess({
      mediaDir, staticDir: playerDist, host, webTransportPort: wtPort, httpPort, tcpPort, httpsPort, cc: options.cc, launcher: ORIGIN_LIFELINE,
    });
  } else {
    log('links-starting', { network: choice.name, copies: Number(options.links), competing_link_players: competingLinkScenario?.players ?? null });
    links = await startViewerLinks({
      links: viewerLinkSpecs(scenario, choice.name, Number(options.links), competingLinkScenario), runDir, mediaDir, cc: options.cc!, clockZeroNs,
      onLog: (line) => {
        if (line.includes('"error"') || line.includes('"warn"')) process.stderr.write(`${line}\n`);
      },
    });
    monitorTimer = setInterval(() => {
      const nowS = clockS();
      for (const l of links) l.monitor.poll(nowS);
    }, MONITOR_POLL_MS);
    page = await ControlServer.start({
      host, port: httpPort!, certSha256Hex: links[0]!.origin.certHashHex, corsOrigin: '*', staticDir: playerDist,
      status: () => ({ network: choice.name, links: links.map((l) => ({ id: l.id, namespace: l.shell.namespace, origin: l.origin.host })) }),
      network: networkStatus,
    });
  }
} catch (error) {
  log('start-failed', { error: error instanceof Error ? error.message : String(error) });
  await stop(1, 'start failed');
}

const originWatch = setInterval(() => {
  const dead = [loopbackOrigin, ...links.map((l) => l.origin)].find((o) => o !== null && o.exitCode() !== null);
  if (dead) {
    clearInterval(originWatch);
    log('origin-exited', { host: dead.host, code: dead.exitCode(), output: dead.output().slice(-2000) });
    void stop(1, 'an origin exited');
  }
}, 1000);
originWatch.unref();

// 4. Where to point the browser.
const pageUrl = `http://${host}:${httpPort}/`;
let mediaQuery = '';
if (scenario) {
  const c = contentFor(scenario);
  mediaQuery = `&content=${c.content}${c.abr === 'off' ? `&abr=off&bitrate=${c.bitrateKbps}` : ''}`;
}
const portQuery = !scenario && (wtPort !== 4433 || tcpPort !== 8081 || httpsPort !== 8443) ? `&port=${wtPort}&tcpPort=${tcpPort}&httpsPort=${httpsPort}` : '';
const q = `${mediaQuery}${portQuery}`;
const lines: Array<[string, string]> = [
  ['PCC Vivace over WebTransport datagrams', `?cc=vivace${q}`],
  ...(scenario ? [
    ['Vivace and kernel CUBIC competing on one bottleneck', `?compare=vivace,cubic@tcp&mode=competing${q}`],
    ['The same two side by side, each on its own copy of the link', `?compare=vivace,cubic@tcp&mode=side-by-side${q}`],
  ] as Array<[string, string]> : [['Vivace beside kernel CUBIC over TCP', `?compare=vivace,cubic@tcp${q}`]] as Array<[string, string]>),
  ["quinn's BBR on a WebTransport stream", `?transport=quic-stream&cc=bbr${q}`],
  ['dash.js over plain HTTP/1.1 on kernel TCP (cubic)', `?transport=tcp&cc=cubic${q}`],
];
const network = scenario
  ? `Network: ${choice.name} (${choice.description}), ${Number(options.links)} ${Number(options.links) === 1 ? 'copy' : 'copies'} of the link; media from ${links.map((l) => l.origin.host).join(', ')}.
Compare views with mode=competing: ${competingNote(scenario, competingPlayers)}${competingLinkScenario ? ` (--competing N for N players)` : ''}.
The same link in the benchmark: ${choice.benchCommand}
GET ${pageUrl}network describes it (capacity, queue).`
  : 'Network: loopback (no emulated link; npm start -- --network list shows the emulated ones).';
console.log(`\npcc-stream is running. Open in Chromium (WebTransport needs it):\n${lines.map(([what, query]) => `  ${what}\n    ${pageUrl}${query}`).join('\n')}\n${network}\nMetrics: window.pccPlayer.metrics() in the page's console. Ctrl-C stops everything.\n`);
