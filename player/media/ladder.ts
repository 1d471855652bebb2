// What `npm run media` produces. Every rung shares one 16:9 aspect ratio (the DASH muxer refuses mixed ones)
// and a low resolution, so decoding stays cheap while CBR filler makes the high bitrates exact.

export interface Rendition {
  /** Target video bitrate; x264 runs CBR with nal-hrd=cbr filler, so segments carry exactly this rate. */
  videoKbps: number;
  width: number;
  height: number;
}

export interface MediaSet {
  /** Folder name under the media root; also the player's `content` URL parameter. */
  name: string;
  renditions: Rendition[];
}

export const segmentDurationS = 2;
export const mediaDurationS = 60;
export const framesPerSecond = 30;
export const audioKbps = 96;

/** Default ABR ladder, 0.3 to 8 Mbit/s (the e2e tests and `npm start` need only this one). */
export const abrLadder: MediaSet = {
  name: 'abr',
  renditions: [
    { videoKbps: 300, width: 256, height: 144 },
    { videoKbps: 800, width: 384, height: 216 },
    { videoKbps: 2000, width: 512, height: 288 },
    { videoKbps: 4000, width: 640, height: 360 },
    { videoKbps: 8000, width: 640, height: 360 },
  ],
};

/** Single-rendition streams for the buffering-ratio experiments (thesis §5.2 plays fixed bitrates). */
export const fixedBitratesKbps = [4000, 8000, 15000, 30000];

export function fixedSetName(videoKbps: number): string {
  return `fixed-${videoKbps}k`;
}

export const fixedSets: MediaSet[] = fixedBitratesKbps.map((videoKbps) => ({
  name: fixedSetName(videoKbps),
  renditions: [{ videoKbps, width: 640, height: 360 }],
}));

export const allSets: MediaSet[] = [abrLadder, ...fixedSets];
