// Loader for the native addon built by `npm run build -w server/native` (napi build --platform).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

function triple() {
  if (process.platform !== 'linux') return `${process.platform}-${process.arch}`;
  // musl has no glibcVersionRuntime in its report header.
  const header = process.report?.getReport()?.header;
  const libc = header && header.glibcVersionRuntime ? 'gnu' : 'musl';
  return `linux-${process.arch}-${libc}`;
}

const file = `pcc-stream-quic.${triple()}.node`;
const path = fileURLToPath(new URL(`./${file}`, import.meta.url));
if (!existsSync(path)) {
  throw new Error(
    `@pcc-stream/quic: native addon ${file} is not built; run \`npm run build -w server/native\` (needs Rust and cargo)`,
  );
}
const native = require(path);

export const {
  QuicServer, QuicClient, Session, BiStream, generateSelfSignedCert, setTcpCongestion, getTcpCongestion, getTcpInfo,
  MIN_DATAGRAM_BUFFER_BYTES, MAX_BUFFER_BYTES, MAX_CONNECTION_ID_BYTES,
} = native;

/** The `code` of the error a session's synchronous calls (sendDatagram, sendDatagramBatch, setCongestion) throw when
 *  the session has ended, whichever side ended it (src/errors.rs). */
export const SESSION_CLOSED_CODE = 'ERR_PCC_SESSION_CLOSED';

/** True when `err` is a session call's failure only because the session has ended (not a real failure). */
export function isSessionClosedError(err) {
  return typeof err === 'object' && err !== null && err.code === SESSION_CLOSED_CODE;
}
