// The controller build a decision came from: the id of the controller library's sources (the files every build,
// native or WASM, compiles the controllers from). wasm/native/controller_build_id.cmake computes the same id into
// pcc-replay at its build; the origin writes it into each recording ("# controller-build ID ...", README
// "Recording and replaying a session") so pcc-replay --check can tell a recording of another build from a defect.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));
/** Folders (not recursive) and files of the library, relative to the package; as in controller_build_id.cmake. */
const SOURCE_DIRS = ['src', 'src/algorithms', 'include/pcc'];
const SOURCE_FILES = ['wasm/event_batch.c', 'wasm/event_batch.h'];
const WASM = 'wasm-dist/pcc_cc.wasm';

function sourceFiles(packageDir: string): string[] {
  const files = [...SOURCE_FILES];
  for (const dir of SOURCE_DIRS) {
    for (const name of readdirSync(join(packageDir, dir))) if (/\.[ch]$/.test(name)) files.push(`${dir}/${name}`);
  }
  // Byte order, as CMake's list(SORT): the paths are ASCII, where UTF-16 order is the same.
  return files.sort();
}

/** SHA-256 over "PATH SHA256\n" per source file in path order, first 12 hex digits. */
export function controllerSourceId(packageDir = PACKAGE_DIR): string {
  const manifest = sourceFiles(packageDir)
    .map((f) => `${f} ${createHash('sha256').update(readFileSync(join(packageDir, f))).digest('hex')}\n`)
    .join('');
  return createHash('sha256').update(manifest).digest('hex').slice(0, 12);
}

export interface ControllerBuild {
  /** The source id, or null when the WASM the origin loads is older than a source (built from other sources). */
  id: string | null;
  /** The loaded WASM's SHA-256, first 8 hex digits (the hash published results cite), or null when missing. */
  wasmSha256: string | null;
  /** The `# controller-build` line a recording starts with (without the `# `). */
  note: string;
}

/** The build of the WASM controllers in this checkout (wasm-dist/), as the origin runs them. */
export function controllerBuild(packageDir = PACKAGE_DIR): ControllerBuild {
  const wasmPath = join(packageDir, WASM);
  const wasmSha256 = existsSync(wasmPath) ? createHash('sha256').update(readFileSync(wasmPath)).digest('hex').slice(0, 8) : null;
  const newestSourceMs = Math.max(...sourceFiles(packageDir).map((f) => statSync(join(packageDir, f)).mtimeMs));
  const fresh = wasmSha256 !== null && statSync(wasmPath).mtimeMs >= newestSourceMs;
  const id = fresh ? controllerSourceId(packageDir) : null;
  const note = id !== null
    ? `controller-build ${id} (controller sources; WASM sha256 ${wasmSha256})`
    : `controller-build unknown (${wasmSha256 === null ? `${WASM} missing` : `WASM sha256 ${wasmSha256} is older than the controller sources`})`;
  return { id, wasmSha256, note };
}
