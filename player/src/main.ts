// Page entry: validates the URL parameters, starts one session (or several side by side with ?compare=...),
// and exposes window.pccPlayer for the benchmark harness, the e2e tests and curious users.
import { ParamError, parsePageParams } from './config/session-params.ts';
import type {} from './pcc-player-api.ts';
import { placeOnNetwork } from './session/network-placement.ts';
import { PlaybackSession } from './session/playback-session.ts';
import { showModeSwitch } from './ui/mode-switch.ts';
import { RunView } from './ui/run-view.ts';
import { SessionPane } from './ui/session-pane.ts';
import './ui/styles.css';

const errorBanner = document.getElementById('page-error') as HTMLElement;
const container = document.getElementById('sessions') as HTMLElement;
const pageErrors: string[] = [];
const sessions: PlaybackSession[] = [];

function showPageError(message: string): void {
  pageErrors.push(message);
  errorBanner.textContent = pageErrors.join('\n');
  errorBanner.hidden = false;
}

window.pccPlayer = {
  metrics: (index = 0) => sessions[index]?.report() ?? null,
  allMetrics: () => sessions.map((s) => s.report()),
  errors: () => pageErrors.slice(),
  cmsd: (index = 0) => sessions[index]?.cmsdReport() ?? null,
  abrSegments: (index = 0) => sessions[index]?.abrSegments() ?? [],
};

window.addEventListener('unhandledrejection', (ev) => showPageError(`Unexpected error: ${String(ev.reason)}`));

try {
  const params = parsePageParams(location.search, location.hostname || '127.0.0.1');
  if (params.compare) {
    container.classList.add('compare');
    const nav = document.querySelector<HTMLElement>('nav.presets');
    if (nav) showModeSwitch(nav, params.networkMode, location.search);
  }
  document.title = `pcc-stream · ${params.sessions.map((s) => s.label).join(' vs ')}`;
  const runView = new RunView(container, showPageError);
  const servers = params.serverGiven ? Promise.resolve(params.sessions.map((s) => s.server)) : placeOnNetwork(params.sessions, params.networkMode, location.origin);
  params.sessions.forEach((sessionParams, index) => {
    const pane = new SessionPane(container, sessionParams, index);
    const session = new PlaybackSession(sessionParams, pane, showPageError, { sharedLink: params.compare && params.networkMode === 'competing' });
    sessions.push(session);
    runView.add(session, pane);
    // With npm start --network the media come from the origin behind the pane's link (session/network-placement.ts).
    void servers.then((placed) => {
      sessionParams.server = placed[index]!;
      return session.start();
    }, (err: unknown) => showPageError(`Cannot place the panes on the network: ${err instanceof Error ? err.message : String(err)}`));
  });
  runView.start(location.origin, params.networkMode);
  window.addEventListener('pagehide', () => sessions.forEach((s) => s.stop()));
} catch (err) {
  showPageError(err instanceof ParamError ? `Bad URL parameter: ${err.message}.` : `Cannot start: ${String(err)}`);
}
