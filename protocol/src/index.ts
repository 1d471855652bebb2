// @pcc-stream/protocol: wire format v3 (PROTOCOL.md) and the state machines both ends share.
// Browser-safe: Uint8Array/DataView only, no Node APIs.
export * from './constants.ts';
export * from './errors.ts';
export { RangeSet, type Interval } from './range-set.ts';
export { readU48, writeU48, isU48 } from './wire/bytes.ts';
export {
  DATA_MAX_HEADER_BYTES, DATA_MIN_HEADER_BYTES, MAX_DATA_PAYLOAD_BYTES, dataHeaderLayout, decodeDataDatagram, encodeDataDatagram,
  writeDataHeader, type DataDatagram, type DataHeaderLayout,
} from './wire/data-datagram.ts';
export { readVarint, varintBytes, writeVarint, type VarintBytes } from './wire/varint.ts';
export {
  ACK_FIXED_BYTES, ackDatagramBytes, decodeAckDatagram, encodeAckDatagram, type AckDatagram, type PacketRange,
} from './wire/ack-datagram.ts';
export {
  FRAME_PREFIX_BYTES, StreamFrameReader, encodeStreamFrame, type ByteRange, type CancelFrame, type DoneFrame,
  type RequestFrame, type ResponseFrame, type StreamFrame,
} from './wire/stream-frames.ts';
export { ACK_EVERY_PACKETS, AckBuilder, DEFAULT_ACK_POLICY, MAX_ACK_DELAY_US, type AckPolicy } from './receiver/ack-builder.ts';
export { AckScheduler, timerDelayMs, type AckStep } from './receiver/ack-scheduler.ts';
export { BodyReassembly } from './receiver/body-reassembly.ts';
export { DatagramReceiver, type DatagramReceiverOptions, type ReceivedData } from './receiver/datagram-receiver.ts';
export { RttEstimator } from './sender/rtt-estimator.ts';
export { SentPacketTracker, type AckOutcome, type SentPacket, type TrackerOptions } from './sender/sent-packet-tracker.ts';
export { CONTROLLER_PARAM_NAME, parseSessionUrl, type SessionParams, type Transport } from './session-url.ts';
export {
  BENCHMARKED_SCHEMES, DEFAULT_SCHEME, QUIC_CONTROLLERS, SCHEMES, SCHEME_NAMES, SCHEME_TRANSPORTS, TCP_CONTROLLERS,
  WASM_CONTROLLERS, controllersOn, isSchemeName, isSchemeTransport, parseScheme, schemeFor, schemeInfo, schemeSpellings,
  schemesOn, PCC_VS_KERNEL_TCP, type QuicControllerName, type RegisteredScheme, type SchemeInfo, type SchemeName, type SchemeOn,
  type SchemeTransport, type TcpControllerName, type WasmControllerName,
} from './schemes.ts';
export {
  CMCD_QUERY_KEY, MAX_CMCD_CHARS, cmcdFromRequestPath, cmcdQueryArgument, parseCmcd, resolveNextObjectPath, type CmcdState,
} from './cmcd.ts';
export {
  CMSD_DYNAMIC_HEADER, CMSD_SERVER_ID, CMSD_STATIC_HEADER, decodeCmsdDynamic, encodeCmsdDynamic, encodeCmsdStatic, type CmsdDynamic,
} from './cmsd.ts';
export { PREFETCH_QUERY_KEY, isPrefetchRequest, withPrefetchMark } from './prefetch-mark.ts';
export { requestQueryValues } from './request-query.ts';
export {
  PLAYER_STATE_PREFIX, PLAYER_STATE_STATUS, playerStateRequestPath, requestPlayerState, type RequestPlayerState,
} from './player-state-request.ts';
export {
  QUEUE_DELAY_PERCENTILE, averageSegmentBitrateKbps, bufferingRatio, bufferingRatioWithStartup, kbpsToMbps, linkUtilization,
  meanCapacityMbps, meanOverPlayers, playedBitrateKbps, queueDelayPercentileMs, type DelayCount,
} from './qoe.ts';
export {
  DEFAULT_NETWORK_MODE, NETWORK_MODES, NETWORK_MODE_PARAM, NETWORK_STATUS_PATH, NETWORK_STATUS_VERSION, isNetworkMode, linkForPane, linkIndexForPane, panesOnLink,
  loopbackNetworkStatus, networkStatusQuery, paneKey, parseNetworkStatus, parseNetworkStatusQuery, type CapacityBin, type NetworkLink, type NetworkMode,
  type NetworkOrigin, type NetworkStatus, type NetworkStatusQuery, type QueueBin,
} from './network-status.ts';
