#!/usr/bin/env python3
"""Why dash.js did not switch up after the controller regained the LTE capacity (issue 18).

Reads each run's abr-segments-player-1.jsonl (player/src/metrics/abr-segment-log.ts) and replays the two dash.js 5.2.1
mechanisms that decide an up-switch, with its default settings (node_modules/dashjs, dist/modern/esm/
dash.mediaplayer.debug.js):
- ThroughputModel EWMA: each stored sample (kbit/s, after the CMSD etp blend) is weighted by
  0.0015 x its download time in ms (first progress event excluded: TTFB is not in the sample), half-lives 3 and 8;
  estimate = min(fast, slow) after the start-up correction; the rules use 0.9 x that ("safe").
- AbrController: after an AbandonRequestsRule abandonment the state is ABANDON_LOAD for abandonLoadTimeout = 10 s, and
  checkPlaybackQuality then takes a new representation only if it is LOWER (ThroughputRule returns no change).
Usage: abr_switch_up.py LABEL=RUNDIR ... [--detail LABEL --from S]
"""
import json, math, statistics, sys

LADDER = [300, 800, 2000, 4000, 8000]
HL_FAST, HL_SLOW, W_PER_MS, SAFETY, LOCK_S = 3.0, 8.0, 0.0015, 0.9, 10.0


def load(run):
    return [json.loads(l) for l in open(f'{run}/abr-segments-player-1.jsonl')]


def ewma_replay(recs, weight_of):
    """Replays the EWMA over the stored samples (an abandoned request stores one too); yields (rec, estimate kbit/s)."""
    fast = slow = total = 0.0
    out = []
    # in the order dash.js stored them (the log keeps an abandoned request's record where it was created)
    for r in sorted((r for r in recs if r['kind'] == 'segment'), key=lambda r: r['dashEndMs'] or 0):
        if r['kind'] != 'segment' or r['sampleKbps'] is None or not r['traceMs']:
            continue
        w = weight_of(r)
        af, as_ = 0.5 ** (w / HL_FAST), 0.5 ** (w / HL_SLOW)
        fast = (1 - af) * r['sampleKbps'] + af * fast
        slow = (1 - as_) * r['sampleKbps'] + as_ * slow
        total += w
        out.append((r, min(fast / (1 - 0.5 ** (total / HL_FAST)), slow / (1 - 0.5 ** (total / HL_SLOW)))))
    return out


def throughput_choice(safe_kbps):
    ok = [k for k in LADDER if k <= safe_kbps]
    return ok[-1] if ok else LADDER[0]


def summary(label, run):
    recs = load(run)
    sw = [r for r in recs if r['kind'] == 'switch']
    ab = [r for r in sw if 'AbandonRequest' in (r['reason'] or {}).get('message', '')]
    replay = ewma_replay(recs, lambda r: W_PER_MS * r['traceMs'])
    err = max([abs(e - r['estimateKbps']) / r['estimateKbps'] for r, e in replay if r['estimateKbps']] or [0])
    row = {'run': label, 'abandon_s': None, 'lock_end_s': None, 'first_up_s': None}
    if ab:
        a = ab[-1]['atMs'] / 1000
        row['abandon_s'] = a
        row['abandon'] = f"{ab[-1]['fromKbps']}→{ab[-1]['toKbps']}"
        row['lock_end_s'] = a + LOCK_S
        ups = [r for r in sw if r['atMs'] / 1000 > a and r['toKbps'] > r['fromKbps']]
        row['first_up_s'] = ups[0]['atMs'] / 1000 if ups else None
        row['first_up'] = f"{ups[0]['fromKbps']}→{ups[0]['toKbps']}" if ups else 'none'
        locked = [(r, e) for r, e in replay if a < (r['dashRequestMs'] or 0) / 1000 < a + LOCK_S]
        row['segs_in_lock'] = len(locked)
        if locked:
            row['raw_med'] = statistics.median(r['sampleRawKbps'] for r, _ in locked)
            etps = [r['etpKbps'] for r, _ in locked if r['etpKbps']]
            row['etp_med'] = statistics.median(etps) if etps else None
            row['ttfb_med'] = statistics.median(r['dashFirstByteMs'] - r['dashRequestMs'] for r, _ in locked)
            row['dl_med'] = statistics.median(r['traceMs'] for r, _ in locked)
            row['est_max'] = max(r['estimateKbps'] for r, _ in locked)
            row['tput_choice'] = throughput_choice(SAFETY * row['est_max'])
            # share of the EWMA's slow weight held by samples from before the abandonment, at the lock's last sample
            last = locked[-1][0]
            before = sum(W_PER_MS * r['traceMs'] for r, _ in replay if (r['dashEndMs'] or 0) <= a * 1000)
            after = sum(W_PER_MS * r['traceMs'] for r, _ in locked)
            row['w_lock_s'] = after
            row['slow_share_before'] = 0.5 ** (after / HL_SLOW)
            # the same samples, each weighted by its 2-s media duration instead of its download time
            alt = ewma_replay(recs, lambda r: W_PER_MS * 2000)
            row['est_alt'] = [e for r, e in alt if r is last][0]
    row['replay_err'] = err
    return row


def detail(run, from_s):
    recs = load(run)
    replay = dict((id(r), e) for r, e in ewma_replay(recs, lambda r: W_PER_MS * r['traceMs']))
    print('| request s | rendition kbit/s | bytes | TTFB ms | download ms | raw kbit/s | CMSD etp kbit/s | stored sample | estimate (dash.js) | estimate (replay) | buffer s |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for r in recs:
        if r['kind'] == 'switch':
            if r['atMs'] / 1000 >= from_s:
                print(f"| {r['atMs']/1000:.2f} | switch {r['fromKbps']}→{r['toKbps']} ({(r['reason'] or {}).get('message','')[:40]}…) | | | | | | | | | |")
            continue
        if (r['dashRequestMs'] or 0) / 1000 < from_s:
            continue
        f = lambda v, p=0: '–' if v is None else f'{v:.{p}f}'
        print(f"| {f((r['dashRequestMs'] or 0)/1000, 2)} | {r['renditionKbps']}{' (abandoned)' if r['abandoned'] else ''} | {r['traceBytes']} | "
              f"{f(r['dashFirstByteMs']-r['dashRequestMs'] if r['dashFirstByteMs'] and r['dashRequestMs'] else None)} | {f(r['traceMs'])} | {f(r['sampleRawKbps'])} | {f(r['etpKbps'])} | "
              f"{f(r['sampleKbps'])} | {f(r['estimateKbps'])} | {f(replay.get(id(r)))} | {f(r['bufferS'],1)} |")


def main(argv):
    if '--detail' in argv:
        i = argv.index('--detail')
        runs = dict(a.split('=', 1) for a in argv[1:i])
        detail(runs[argv[i + 1]], float(argv[argv.index('--from') + 1]))
        return
    f = lambda v, p=0: '–' if v is None else f'{v:.{p}f}'
    print('| run | last abandonment s (from→to) | lock ends s | first up-switch s | segments in lock | raw sample median kbit/s | CMSD etp median kbit/s | TTFB / download median ms | max estimate in lock kbit/s | ThroughputRule pick at 0.9× | pre-abandon share of slow EWMA | estimate if weighted by 2 s media | EWMA replay max error |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for a in argv[1:]:
        label, run = a.split('=', 1)
        s = summary(label, run)
        if s['abandon_s'] is None:
            print(f"| {label} | none | | | | | | | | | | | {s['replay_err']*100:.1f} % |")
            continue
        print(f"| {label} | {s['abandon_s']:.2f} ({s['abandon']}) | {s['lock_end_s']:.2f} | {f(s['first_up_s'],2)} ({s['first_up']}) | "
              f"{s['segs_in_lock']} | {f(s.get('raw_med'))} | {f(s.get('etp_med'))} | {f(s.get('ttfb_med'))} / {f(s.get('dl_med'))} | "
              f"{f(s.get('est_max'))} | {s.get('tput_choice','–')} | {f(100*s['slow_share_before']) if 'slow_share_before' in s else '–'} % | "
              f"{f(s.get('est_alt'))} | {s['replay_err']*100:.1f} % |")


if __name__ == '__main__':
    main(sys.argv)
