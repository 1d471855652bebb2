// dash.js 5's real HTTPLoader and ThroughputModel in node (loaded by name from its FactoryMaker), with our loader
// (transport-loader.ts) installed as its XHRLoader over any MediaFetcher: what sample dash.js's own throughput model
// stores for a request, from the trace its HTTPLoader built out of our loader's progress events. Shared by the tests
// of what dash.js is told over each transport (prefetch-dash-throughput, webtransport-dash-throughput).
import { createTransportLoader } from '../src/dash/transport-loader.ts';
import type { MediaFetcher } from '../src/transport/media-fetcher.ts';

// dash.js's bundle probes the browser when it loads (imsc's text renderer reads navigator and document at module
// level); nothing of what this test runs (HTTPLoader, ThroughputModel, Settings, metrics) touches these.
const g = globalThis as Record<string, unknown>;
g.navigator ??= { userAgent: 'node' };
g.window ??= globalThis;
g.document ??= { documentElement: {}, createElement: () => ({ style: {} }) };
g.getComputedStyle ??= () => ({});

interface Factory { (context: object): { create(config?: object): Record<string, (...a: never[]) => unknown>; getInstance(config?: object): Record<string, (...a: never[]) => unknown> } }
interface FactoryMakerApi {
  getClassFactoryByName(name: string): Factory;
  getSingletonFactoryByName(name: string): Factory;
  extend(name: string, child: unknown, override: boolean, context: object): void;
}

async function dash(): Promise<FactoryMakerApi> {
  // Node may load the package's CommonJS build, whose exports sit under `default`.
  const mod = (await import('dashjs')) as unknown as { FactoryMaker?: FactoryMakerApi; default?: { FactoryMaker?: FactoryMakerApi } };
  const fm = mod.FactoryMaker ?? mod.default?.FactoryMaker;
  if (!fm) throw new Error('dash.js exports no FactoryMaker');
  return fm;
}

export interface Sample { value: number; downloadedBytes: number; downloadTimeInMs: number }

/** dash.js's pieces for one test: its HTTPLoader over `fetcher` and a ThroughputModel fed from its metrics. */
export async function dashLoader(fetcher: MediaFetcher): Promise<{ load: (path: string) => Promise<Sample> }> {
  const fm = await dash();
  const context = {};
  const settings = fm.getSingletonFactoryByName('Settings')(context).getInstance();
  // As the player sets them (playback-session.ts): samples from our loader's events only, no cache threshold, no CMSD
  // blend (the sample alone is under test).
  settings.update!({ streaming: { abr: { throughput: { useResourceTimingApi: false } }, cacheLoadThresholds: { video: 0, audio: 0 }, cmsd: { enabled: false } } } as never);
  const metricsModel = fm.getSingletonFactoryByName('MetricsModel')(context).getInstance({ settings } as never);
  const dashMetrics = fm.getSingletonFactoryByName('DashMetrics')(context).getInstance({ metricsModel } as never);
  const mediaPlayerModel = fm.getSingletonFactoryByName('MediaPlayerModel')(context).getInstance();
  // Its retry and timeout settings ask the playback controller whether low latency is on (VoD: not).
  mediaPlayerModel.setConfig!({ playbackController: { getLowLatencyModeEnabled: () => false } } as never);
  const errHandler = fm.getSingletonFactoryByName('ErrorHandler')(context).getInstance();
  fm.extend('XHRLoader', createTransportLoader(fetcher), false, context);
  const httpLoader = fm.getClassFactoryByName('HTTPLoader')(context).create({ errHandler, dashMetrics, mediaPlayerModel, boxParser: null, errors: {} } as never);
  const model = fm.getClassFactoryByName('ThroughputModel')(context).create({ settings } as never);
  const samples: Sample[] = [];
  const eventBus = fm.getSingletonFactoryByName('EventBus')(context).getInstance();
  eventBus.on!('throughputMeasurementStored' as never, ((e: { throughputValues: Sample }) => samples.push(e.throughputValues)) as never);
  const load = (path: string): Promise<Sample> => new Promise((resolve, reject) => {
    const request = { url: `http://origin${path}`, type: 'MediaSegment', mediaType: 'video', range: null, responseType: 'arraybuffer' };
    void httpLoader.load!({
      request,
      success: () => {
        const vo = dashMetrics.getCurrentHttpRequest!('video' as never);
        const before = samples.length;
        model.addEntry!('video' as never, vo as never);
        if (samples.length === before) reject(new Error('dash.js stored no sample'));
        else resolve(samples.at(-1)!);
      },
      error: (_r: unknown, _t: unknown, message: string) => reject(new Error(`dash.js: ${message}`)),
    } as never);
  });
  return { load };
}
