// Runs ffmpeg with `-progress pipe:1` and turns its out_time into a fraction of the content encoded, so long
// encodes can report progress and an ETA.
import { spawn } from 'node:child_process';

/** Runs ffmpeg (niced, it is background work) in `cwd`; `onProgress` gets the encoded content time in seconds. */
export function runFfmpeg(args: string[], cwd: string, onProgress?: (encodedS: number) => void): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('nice', ['-n', '10', 'ffmpeg', '-progress', 'pipe:1', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        // out_time_us is the muxed content time; ffmpeg prints N/A before the first frame.
        const m = /^out_time_us=(\d+)$/.exec(line.trim());
        if (m) onProgress?.(Number(m[1]) / 1e6);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', (err) => reject(new Error(`cannot run ffmpeg (${err.message}); install it: apt-get install -y ffmpeg`)));
    child.on('close', (code) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim().slice(-2000)}`));
    });
  });
}
