// Replaces dash.js's internal XHRLoader (player.extend('XHRLoader', ...), FIELD-NOTES "dash.js 5.2.x") so manifests
// and segments travel over our MediaFetcher, on every transport. dash.js's HTTPLoader keeps doing retries, timeouts
// and throughput traces; for that it needs ≥ 2 progress events per request, the first of which it takes as the
// latency (its bytes are not counted), a failed request reported as onloadend with a non-2xx status (so it
// retries), and abort() wired through customData. The first event this loader hands dash.js therefore always
// carries zero bytes (the response head): a body that arrived in one piece still leaves dash.js all its bytes to
// count, where a lone piece, or a zero-byte piece after it, would give no sample or a 0 kbit/s one.
//
// Aborts: dash.js's HTTPLoader aborts a request through the customData of the request object it created, but its CMCD
// interceptor (on in every session) hands the loader a copy with a new customData, so that abort() never reaches the
// loader: an abandoned segment (AbandonRequestsRule, a fast switch) kept loading and was appended after the next
// rendition's init segment, where it does not decode (PIPELINE_ERROR_DECODE, then CHUNK_DEMUXER_ERROR_APPEND_FAILED).
// installTransportLoader therefore also extends HTTPLoader: its abort() aborts every request of its own loader too.
import { parseRangeHeader, type MediaFetcher } from '../transport/media-fetcher.ts';

/** The subset of dash.js's CommonMediaRequest / CommonMediaResponse the loader touches. */
interface LoaderRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  responseType?: string;
  timeout?: number;
  customData: {
    /** dash.js's FragmentRequest: the same object in HTTPLoader's request and in the copy the loader is given. */
    request?: unknown;
    /** `time`: the trace's duration (ms) dash.js's HTTPLoader uses instead of its own clock when given. */
    onprogress?: (e: { loaded: number; total: number; lengthComputable: boolean; time?: number }) => void;
    onloadend?: () => void;
    onabort?: () => void;
    /** dash.js's HTTPLoader reads the event's loaded/total/lengthComputable for its message: it must be given one. */
    ontimeout?: (e: { loaded: number; total: number; lengthComputable: boolean }) => void;
    abort?: () => void;
  };
}

interface LoaderResponse {
  url?: string;
  status?: number;
  statusText?: string;
  headers?: Record<string, string>;
  data?: unknown;
}

/** The `time` (ms) of a piece whose duration is not known or rounds to nothing: dash.js treats 0 as "not given". */
const MIN_PIECE_MS = 0.001;

export interface LoaderHooks {
  onBytes?: (bytes: number) => void;
  /** The CMSD-Dynamic value handed to dash.js with a response (for the page's record of what the ABR was told). */
  onCmsd?: (url: string, cmsdDynamic: string) => void;
  onError?: (url: string, message: string) => void;
  /** A request dash.js gave `timeoutMs` ended unfinished with `loadedBytes` of its body (dash.js retries it). */
  onTimeout?: (url: string, loadedBytes: number, timeoutMs: number) => void;
}

function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

function decodeBody(body: ArrayBuffer, responseType: string | undefined): unknown {
  if (responseType === 'arraybuffer') return body;
  const text = new TextDecoder().decode(body);
  return responseType === 'json' ? JSON.parse(text) : text;
}

/** A dash.js factory function; `__dashjs_factory_name` makes player.extend() swap it in for XHRLoader. */
export interface DashLoaderFactory {
  (): { load: (req: LoaderRequest, res: LoaderResponse) => boolean; abort: () => void; reset: () => void; resetInitialSettings: () => void; getXhr: () => null };
  __dashjs_factory_name: string;
}

/** A loader instance as the HTTPLoader extension sees it: every request it has in flight can be aborted. */
interface AbortableLoader {
  abortAll(): void;
}

/** Which loader instance holds a request, by dash.js's FragmentRequest (customData.request): the one object HTTPLoader
 *  and the loader both see, the customData being copied in between. */
type RequestOwners = WeakMap<object, AbortableLoader>;

export function createTransportLoader(fetcher: MediaFetcher, hooks: LoaderHooks = {}, owners: RequestOwners = new WeakMap()): DashLoaderFactory {
  const factory = function TransportLoader() {
    const inFlight = new Set<{ controller: AbortController; req: LoaderRequest }>();

    const abortOne = (controller: AbortController, req: LoaderRequest): void => {
      if (controller.signal.aborted) return;
      controller.abort();
      req.customData.onabort?.();
    };
    const abortAll = (): void => {
      for (const f of [...inFlight]) abortOne(f.controller, f.req);
      inFlight.clear();
    };

    const load = (req: LoaderRequest, res: LoaderResponse): boolean => {
      const controller = new AbortController();
      const entry = { controller, req };
      inFlight.add(entry);
      const fragmentRequest = req.customData.request;
      if (typeof fragmentRequest === 'object' && fragmentRequest !== null) owners.set(fragmentRequest, { abortAll });
      req.customData.abort = () => abortOne(controller, req);
      let finished = false;
      let lastLoaded = 0;
      let lastTotal = 0;
      const timer = req.timeout && req.timeout > 0
        ? setTimeout(() => {
          if (finished || controller.signal.aborted) return;
          finished = true;
          controller.abort();
          hooks.onTimeout?.(req.url, lastLoaded, req.timeout!);
          req.customData.ontimeout?.({ loaded: lastLoaded, total: lastTotal, lengthComputable: lastTotal > 0 });
          res.status = 0;
          res.statusText = 'timeout';
          req.customData.onloadend?.();
        }, req.timeout)
        : null;
      const url = new URL(req.url);
      const range = parseRangeHeader(headerValue(req.headers, 'range'));
      let progressEvents = 0;
      const emit = (loaded: number, total: number, timeMs: number | undefined): void => {
        progressEvents++;
        lastLoaded = loaded;
        lastTotal = total;
        req.customData.onprogress?.({ loaded, total, lengthComputable: total > 0, ...(timeMs === undefined ? {} : { time: timeMs }) });
      };
      const onProgress = (loaded: number, total: number, durationMs?: number): void => {
        if (finished || controller.signal.aborted) return;
        // Bytes that arrived earlier (an early request) carry their real arrival time: dash.js's throughput trace
        // takes `time` as the piece's duration instead of the (near zero) time since its previous event.
        const timeMs = durationMs === undefined ? undefined : Math.max(durationMs, MIN_PIECE_MS);
        if (progressEvents === 0 && loaded > 0) {
          // The fetcher reported no head. Bytes that arrived earlier keep their real duration on the piece dash.js
          // counts (not on the head it drops as latency): a whole segment replayed in one piece then reads as its
          // download time, where a 0.001 ms piece made dash.js's sample 10^4-10^6 x too high.
          emit(0, total, timeMs === undefined ? undefined : MIN_PIECE_MS);
          emit(loaded, total, timeMs);
          return;
        }
        emit(loaded, total, timeMs);
      };
      fetcher.fetch(url.pathname + url.search, range, onProgress, controller.signal)
        .then((response) => {
          if (finished || controller.signal.aborted) return;
          // Guarantee the two events dash.js's throughput trace needs even when the fetcher reported none.
          while (progressEvents < 2) onProgress(response.body.byteLength, response.body.byteLength);
          finished = true;
          res.url = req.url;
          res.status = response.status;
          res.statusText = response.statusText;
          // dash.js's HTTPLoader gives res.headers to its CmsdModel (streaming.cmsd.enabled), which looks for the
          // lower-case names XHR's getAllResponseHeaders produces: the RESPONSE frame's CMSD goes in under them.
          res.headers = { 'content-type': response.contentType, 'content-length': String(response.body.byteLength) };
          if (response.cmsdStatic) res.headers['cmsd-static'] = response.cmsdStatic;
          if (response.cmsdDynamic) {
            res.headers['cmsd-dynamic'] = response.cmsdDynamic;
            hooks.onCmsd?.(req.url, response.cmsdDynamic);
          }
          if (response.status >= 200 && response.status < 300) {
            hooks.onBytes?.(response.body.byteLength);
            res.data = decodeBody(response.body, req.responseType);
          } else {
            hooks.onError?.(req.url, `${response.status} ${response.statusText}`);
          }
          req.customData.onloadend?.();
        })
        .catch((err: unknown) => {
          if (finished || controller.signal.aborted) return;
          finished = true;
          // status 0 makes HTTPLoader treat it as a network error and retry per its settings.
          res.url = req.url;
          res.status = 0;
          res.statusText = err instanceof Error ? err.message : String(err);
          hooks.onError?.(req.url, res.statusText);
          req.customData.onloadend?.();
        })
        .finally(() => {
          if (timer) clearTimeout(timer);
          inFlight.delete(entry);
        });
      return true;
    };

    return { load, abort: abortAll, reset: abortAll, resetInitialSettings: abortAll, getXhr: () => null };
  } as DashLoaderFactory;
  factory.__dashjs_factory_name = 'XHRLoader';
  return factory;
}

/** The part of dash.js's HTTPLoader the extension wraps (config.request is the FragmentRequest). */
export interface DashHttpLoader {
  load(config: { request?: unknown }): unknown;
  abort(): void;
}

/** At most this many requests are remembered while an HTTPLoader has not yet been matched to its loader instance. */
const UNMATCHED_REQUESTS_KEPT = 16;

/** dash.js's HTTPLoader extended (player.extend(..., override = true)): its abort() also aborts every request in
 *  flight on its own loader instance, which HTTPLoader creates once and uses for all its requests. */
export function createHttpLoaderExtension(owners: RequestOwners): (this: { parent: DashHttpLoader }) => DashHttpLoader {
  return function HttpLoaderAborts(this: { parent: DashHttpLoader }): DashHttpLoader {
    // Taken now: dash.js then puts the returned methods in place of the parent's on the same object.
    const parentLoad = this.parent.load;
    const parentAbort = this.parent.abort;
    let own: AbortableLoader | null = null;
    let unmatched: object[] = [];
    const ownLoader = (): AbortableLoader | null => {
      if (own) return own;
      own = unmatched.map((r) => owners.get(r)).find((o) => o !== undefined) ?? null;
      if (own) unmatched = [];
      return own;
    };
    return {
      load(config) {
        const r = config?.request;
        if (!ownLoader() && typeof r === 'object' && r !== null) unmatched = [...unmatched, r].slice(-UNMATCHED_REQUESTS_KEPT);
        return parentLoad(config);
      },
      abort() {
        parentAbort();
        ownLoader()?.abortAll();
      },
    };
  };
}

/** What installTransportLoader needs of a dash.js MediaPlayer. */
export interface ExtensiblePlayer {
  extend(parentNameString: string, childInstance: object, override: boolean): void;
}

/** Puts our loader into a dash.js player: XHRLoader replaced, HTTPLoader's abort() made to reach it (see the top).
 *  Must precede initialize(): dash.js instantiates its loaders then. */
export function installTransportLoader(player: ExtensiblePlayer, fetcher: MediaFetcher, hooks: LoaderHooks = {}): void {
  const owners: RequestOwners = new WeakMap();
  player.extend('HTTPLoader', createHttpLoaderExtension(owners), true);
  player.extend('XHRLoader', createTransportLoader(fetcher, hooks, owners), false);
}
