export { PccClient, type ConnectOptions, type FetchOptions, type FetchResult } from './pcc-client.ts';
export { tcpFetch, type TcpFetchResult } from './tcp-fetch.ts';
