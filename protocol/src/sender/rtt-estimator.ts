// RTT estimation as in RFC 9002 §5: min, smoothed and variance, with the peer's ack delay removed when that
// does not take the sample below the minimum.

export class RttEstimator {
  latestUs = 0;
  minUs = Infinity;
  smoothedUs = 0;
  varianceUs = 0;
  samples = 0;

  constructor(private readonly maxAckDelayUs: number) {}

  /** Adds a sample; returns the ack-delay-adjusted RTT. */
  update(rawRttUs: number, ackDelayUs: number): number {
    const latest = Math.max(1, rawRttUs);
    this.latestUs = latest;
    if (latest < this.minUs) this.minUs = latest;
    const delay = Math.min(ackDelayUs, this.maxAckDelayUs);
    const adjusted = latest >= this.minUs + delay ? latest - delay : latest;
    if (this.samples === 0) {
      this.smoothedUs = adjusted;
      this.varianceUs = adjusted / 2;
    } else {
      this.varianceUs = 0.75 * this.varianceUs + 0.25 * Math.abs(this.smoothedUs - adjusted);
      this.smoothedUs = 0.875 * this.smoothedUs + 0.125 * adjusted;
    }
    this.samples++;
    return adjusted;
  }
}
