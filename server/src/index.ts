// @pcc-stream/server: the origin and its building blocks, for tests, benchmarks and scripts.
export { DEFAULT_ORIGIN_OPTIONS, Origin, type OriginOptions } from './origin.ts';
export { PccClient, tcpFetch, type ConnectOptions, type FetchOptions, type FetchResult } from './client/index.ts';
export { ControlServer, type ControlServerOptions } from './http/control-server.ts';
