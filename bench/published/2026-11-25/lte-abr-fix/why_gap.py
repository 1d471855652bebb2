#!/usr/bin/env python3
"""Why vivace-video (new ABR) trails tcp-bbr on LTE (issue 18), per run, from the raw bench run directories.

1. After the fade (link seconds [FROM, TO], default 17-28: Verizon-LTE-short's return, session s ~12-24): the unused
   capacity (Mbit) booked by ../lte-bitrate-gap/bitrate_gap.py (imported: idle-full, idle-gap, queue-cut, below-cap),
   with below-cap split by what the sender did in that second: ctl-capped (sent >= 0.8 x the controller's rate, so
   the controller's own rate stood below capacity) or app-short (sent < 0.8 x it: the request's bytes ran out first);
   and the median controller rate / capacity over the seconds with a request outstanding.
2. Where the run's p95 queueing comes from: linkem's downlink per-packet queue delays, the run's p95, and the share
   of the packets at or above it that departed in the fade (link s [FADE_FROM, FROM)) and after it; the median
   rendition fetched during the fade.
3. Wire bytes per media byte, split (all per byte the players received, whole downlink log): ACK-only packets
   (< 200 IP bytes), data-packet headers (QUIC: IP bytes of the 200-1499-byte packets less the origin's sent_bytes;
   TCP: 52 IP+TCP bytes per 1,448-byte segment), retransmissions that cost wire bytes (QUIC only: the origin's
   retransmitted_bytes less the bytes linkem's queue dropped, whose originals never departed; may go negative), and the
   rest of the published figure (TLS, cancelled bytes the player never counted, the harness's cut).
4. Re-downloads: video segments of an index already downloaded (dash.js fast switch replacing buffered segments at a
   higher rendition, or an abandoned request's replacement), from abr-segments-player-1.jsonl: the bytes of every
   download of an index but its last, plus abandoned downloads' bytes, whole run and for requests in session s
   [SFROM, STO) (default 12-24, post_fade.py's window).
usage: python3 why_gap.py [--from S --to S --fade-from S --sfrom S --sto S] ARM-N=RUN_DIR...   (markdown on stdout)"""
import importlib.util
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


bitrate_gap = _load('bitrate_gap', '../lte-bitrate-gap/bitrate_gap.py')
student_t = bitrate_gap.student_t
CTL_SHARE = 0.8
TCP_HEADER_PER_PAYLOAD = 52 / 1448
LINK_LOG_FRAMING_BYTES = 4  # mahimahi's per-packet framing in the log's sizes (bench/harness/wire-overhead.ts)


def link_packets(run):
    """(departure ms, IP bytes, queue delay ms) of each downlink departure."""
    out = []
    for line in open(os.path.join(run, 'link-down.log')):
        f = line.split()
        if len(f) >= 4 and f[1] == '-':
            out.append((float(f[0]), int(f[2]) - LINK_LOG_FRAMING_BYTES, float(f[3])))
    return out


def origin_closed(run):
    for line in open(os.path.join(run, 'origin.log')):
        if '"session.closed"' in line:
            return json.loads(line)
    return {}


def result_row(run):
    """The run's row in its bench output's results.jsonl (run dir = OUT/runs/SCENARIO/SCHEME/SEED)."""
    seed = int(os.path.basename(run))
    scheme = os.path.basename(os.path.dirname(run))
    out = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(run))))
    for line in open(os.path.join(out, 'results.jsonl')):
        r = json.loads(line)
        if r.get('seed') == seed and r.get('scheme') == scheme:
            return r
    return {}


def redownloads(run, slo, shi):
    """(count, Mbit) of superseded and abandoned video downloads, whole run and requested in session s [slo, shi)."""
    segs = [json.loads(line) for line in open(os.path.join(run, 'abr-segments-player-1.jsonl'))]
    segs = sorted((s for s in segs if s.get('kind') == 'segment' and s.get('dashRequestMs') is not None),
                  key=lambda s: s['dashRequestMs'])
    last = {}
    for s in segs:
        if not s.get('abandoned'):
            last[s['index']] = s['dashRequestMs']
    out = {'n': 0, 'mbit': 0.0, 'n_win': 0, 'mbit_win': 0.0, 'total_win': 0.0}
    for s in segs:
        mbit = ((s.get('transfer') or {}).get('bytes') or 0) * 8e-6
        win = slo <= s['dashRequestMs'] / 1000 < shi
        out['total_win'] += mbit if win else 0.0
        if s.get('abandoned') or last.get(s['index']) != s['dashRequestMs']:
            out['n'] += 1
            out['mbit'] += mbit
            out['n_win'] += win
            out['mbit_win'] += mbit if win else 0.0
    return out


def analyse(run, lo, hi, fade_lo, slo=12, shi=24):
    gap = bitrate_gap.analyse(run)
    win = [p for p in gap['per_s'] if lo <= p['s'] <= hi]
    q1 = {'cap': sum(p['cap'] for p in win), 'deliv': sum(p['deliv'] for p in win),
          'idle-full': 0.0, 'idle-gap': 0.0, 'queue-cut': 0.0, 'ctl-capped': 0.0, 'app-short': 0.0, 'below-cap': 0.0}
    ratios, states = [], {}
    for p in win:
        unused = p['unused']
        idle = min(unused, p['cap'] * (1 - p['out']))
        busy = unused - idle
        full = p['buf'] is not None and p['buf'] >= bitrate_gap.FULL_BUFFER_S
        q1['idle-full' if full else 'idle-gap'] += idle
        queued = p['p95q'] >= bitrate_gap.QUEUE_BOUND_MS
        if queued:
            q1['queue-cut'] += busy
        else:
            q1['below-cap'] += busy
            if p['ctl'] is not None:
                q1['ctl-capped' if p['arr'] >= CTL_SHARE * p['ctl'] else 'app-short'] += busy
        if p['out'] >= 0.5 and p['ctl'] is not None and p['cap'] > 0:
            ratios.append(p['ctl'] / p['cap'])
        for s in (p['state'] or '').split(','):
            if s:
                states[s] = states.get(s, 0) + 1
    q1['ctl/cap'] = statistics.median(ratios) if ratios else None
    q1['states'] = states
    # 2. p95 queueing
    pk = link_packets(run)
    delays = sorted(d for _, _, d in pk)
    p95 = delays[int(0.95 * (len(delays) - 1))] if delays else 0.0
    high = [t for t, _, d in pk if d >= p95]
    fade_share = sum(1 for t in high if fade_lo * 1000 <= t < lo * 1000) / len(high) if high else 0.0
    after_share = sum(1 for t in high if lo * 1000 <= t < (hi + 1) * 1000) / len(high) if high else 0.0
    fetched = [p['fetch'] for p in gap['per_s'] if fade_lo <= p['s'] < lo and p['fetch']]
    ctl_fade = [p['ctl'] / p['cap'] for p in gap['per_s'] if fade_lo <= p['s'] < lo and p['ctl'] and p['cap'] > 0]
    q2 = {'p95': p95, 'fade': fade_share, 'after': after_share,
          'fade_fetch': statistics.median(fetched) if fetched else None,
          'fade_ctl/cap': statistics.median(ctl_fade) if ctl_fade else None}
    # 3. wire bytes per media byte
    row, closed = result_row(run), origin_closed(run)
    media = sum(p.get('bytes_received') or 0 for p in row.get('players', []))
    small = sum(b for _, b, _ in pk if b < 200)
    if not closed and not os.path.basename(os.path.dirname(run)).startswith('tcp-'):
        header = retx = None  # a QUIC run whose origin log has no session.closed line
    elif closed:  # QUIC: the origin's own counts
        down = json.load(open(os.path.join(run, 'link-summary.json')))['down']
        dropped = down['queueDropLinkBytes'] - LINK_LOG_FRAMING_BYTES * down['queueDropPackets']
        data = sum(b for _, b, _ in pk if 200 <= b < 1500)
        # sent_bytes counts the originals the queue dropped, which never reached the wire; their retransmissions did
        header = data + dropped - closed['sent_bytes']
        retx = closed.get('retransmitted_bytes', 0) - dropped
    else:
        header = TCP_HEADER_PER_PAYLOAD * media
        retx = 0
    pub = row.get('wire_bytes_per_media_byte')
    q3 = {'published': pub, 'ack': small / media, 'header': None if header is None else header / media,
          'retx': None if retx is None else retx / media}
    q3['rest'] = pub - 1 - q3['ack'] - q3['header'] - q3['retx'] if pub and header is not None else None
    return {'q1': q1, 'q2': q2, 'q3': q3, 'q4': redownloads(run, slo, shi)}


def f(x, d=2):
    return '–' if x is None else f'{x:.{d}f}'


def ci(xs, d=2):
    if not xs:
        return '–'
    if len(xs) >= 3:
        m, h = student_t.mean_ci95(xs)
        return f'{m:+.{d}f} ± {h:.{d}f}'
    return ', '.join(f'{x:+.{d}f}' for x in xs)


def main(argv):
    opt = {'--from': 17, '--to': 28, '--fade-from': 11, '--sfrom': 12, '--sto': 24}
    while argv and argv[0] in opt:
        opt[argv[0]] = int(argv[1])
        argv = argv[2:]
    lo, hi, fade_lo = opt['--from'], opt['--to'], opt['--fade-from']
    if not argv:
        sys.exit(__doc__)
    res = {}
    for arg in argv:
        label, _, run = arg.partition('=')
        res[label] = analyse(run, lo, hi, fade_lo, opt['--sfrom'], opt['--sto'])
    print(f'## 1. Link s {lo}-{hi} (after the fade): unused capacity, Mbit\n')
    print('| run | capacity | delivered | idle, buffer full | idle, request gap | queue-cut | below-cap | of it ctl-capped | of it app-short '
          '| ctl rate / capacity (median, request out) | controller states (s) |')
    print('| --- ' * 11 + '|')
    for k, a in res.items():
        q = a['q1']
        st = ' '.join(f'{s}:{n}' for s, n in sorted(q['states'].items()))
        print(f"| {k} | {q['cap']:.1f} | {q['deliv']:.1f} | {q['idle-full']:.1f} | {q['idle-gap']:.1f} | {q['queue-cut']:.1f} | {q['below-cap']:.1f} | "
              f"{q['ctl-capped']:.1f} | {q['app-short']:.1f} | {f(q['ctl/cap'])} | {st} |")
    print(f'\n## 2. p95 queueing: where the packets at or above the run\'s p95 departed (fade: link s {fade_lo}-{lo - 1})\n')
    print('| run | p95 ms | share in fade | share after | rendition fetched in fade (median kbit/s) | ctl / capacity in fade |')
    print('| --- ' * 6 + '|')
    for k, a in res.items():
        q = a['q2']
        print(f"| {k} | {q['p95']:.0f} | {q['fade']:.2f} | {q['after']:.2f} | {f(q['fade_fetch'], 0)} | {f(q['fade_ctl/cap'])} |")
    print('\n## 3. Wire bytes per media byte, split (per byte the players received)\n')
    print('| run | published | ACK-only pkts | data headers | retransmissions on the wire | rest |')
    print('| --- ' * 6 + '|')
    for k, a in res.items():
        q = a['q3']
        print(f"| {k} | {f(q['published'], 4)} | {q['ack']:.4f} | {f(q['header'], 4)} | {f(q['retx'], 4)} | {f(q['rest'], 4)} |")
    print(f"\n## 4. Superseded and abandoned video downloads (session s {opt['--sfrom']}-{opt['--sto']} by request time)\n")
    print('| run | whole run: n | Mbit | window: n | Mbit | of the window\'s segment Mbit |')
    print('| --- ' * 6 + '|')
    for k, a in res.items():
        q = a['q4']
        share = q['mbit_win'] / q['total_win'] if q['total_win'] else 0.0
        print(f"| {k} | {q['n']} | {q['mbit']:.1f} | {q['n_win']} | {q['mbit_win']:.1f} | {share:.2f} |")
    # paired differences: every arm against the first label's arm, by repetition
    arms = {}
    for k, a in res.items():
        arm, _, rep = k.rpartition('-')
        arms.setdefault(arm, {})[rep] = a
    names = list(arms)
    cols = [('below-cap Mbit', lambda a: a['q1']['below-cap'], 1), ('of it ctl-capped', lambda a: a['q1']['ctl-capped'], 1),
            ('idle-full Mbit', lambda a: a['q1']['idle-full'], 1), ('idle-gap Mbit', lambda a: a['q1']['idle-gap'], 1),
            ('delivered Mbit', lambda a: a['q1']['deliv'], 1), ('p95 ms', lambda a: a['q2']['p95'], 0),
            ('p95 share in fade', lambda a: a['q2']['fade'], 2), ('fade rendition', lambda a: a['q2']['fade_fetch'], 0),
            ('fade ctl/cap', lambda a: a['q2']['fade_ctl/cap'], 2), ('ACK-only', lambda a: a['q3']['ack'], 4),
            ('headers', lambda a: a['q3']['header'], 4), ('retx', lambda a: a['q3']['retx'], 4),
            ('rest', lambda a: a['q3']['rest'], 4), ('re-dl Mbit (window)', lambda a: a['q4']['mbit_win'], 1)]
    print('\n## Paired differences (arm − ' + names[0] + ', same seed; mean ± 95 % t when n ≥ 3, else each pair)\n')
    print('| arm | n | ' + ' | '.join(c for c, _, _ in cols) + ' |')
    print('| --- ' * (2 + len(cols)) + '|')
    for arm in names[1:]:
        reps = sorted(set(arms[arm]) & set(arms[names[0]]))
        if reps:
            print(f'| {arm} − {names[0]} | {len(reps)} | ' + ' | '.join(
                ci([g(arms[arm][r]) - g(arms[names[0]][r]) for r in reps
                    if g(arms[arm][r]) is not None and g(arms[names[0]][r]) is not None], d) for _, g, d in cols) + ' |')


if __name__ == '__main__':
    main(sys.argv[1:])
