# The tables of lte-request-gap/summary.md from traced bench runs.
# usage: python3 gap-tables.py UPLINK_TRACE BENCH_OUT_DIR...   (run directories traced with trace-instrumentation.patch)
import json, sys
import os
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'gap-breakdown.py')).read().split("if __name__ == '__main__':")[0])
up = silent_windows(load_trace(sys.argv[1]))
down = silent_windows(load_trace(sys.argv[1][:-len('.up')] + '.down'))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
def ci(xs):
    xs = [x for x in xs if x is not None]
    if len(xs) < 2: return '%.0f' % xs[0] if xs else '-'
    m, h = mean_ci95(xs)
    return '%.0f ± %.0f' % (m, h)
def runs_of(res, scheme):
    return sorted([r for r in res if r['scheme'] == scheme and r['status'] == 'ok'], key=lambda r: r['repetition'])
def run_dir(base, scheme, r):
    return f'{base}/runs/lte-att-lte-driving-2016/{scheme}/{r["repetition"]}'
def each_run(base, res):
    for scheme in ['vivace', 'tcp-cubic']:
        for r in runs_of(res, scheme):
            yield scheme, r['repetition'], run_dir(base, scheme, r)
def gap_rows(base, res, scheme):
    rows = []
    for r in runs_of(res, scheme):
        rows += analyse(run_dir(base, scheme, r), up, down)
    return rows
for base in sys.argv[2:]:
    phase = base
    res = [json.loads(l) for l in open(f'{base}/results.jsonl')]
    print(f'### {phase}')
    print('| scheme | runs | player p50 ms (mean ± 95% CI) | player p95 ms | player mean ms | gaps | pooled p50 | pooled p95 | pooled p95 without the gaps that met a silence | b2b requests sent into an uplink silence / whose first byte waited out a downlink silence | buffering % |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for s in ['vivace', 'tcp-cubic']:
        rs = runs_of(res, s)
        p = [r['players'][0] for r in rs]
        rows = gap_rows(base, res, s)
        g = [x['gap'] for x in rows]; gn = [x['gap'] for x in rows if not x['in_uplink_silence'] and not x['met_downlink_silence']]
        print('| %s | %d | %s | %s | %s | %d | %.0f | %.0f | %.0f | %s | %s |' % (s, len(rs), ci([x['segment_gap_p50_ms'] for x in p]), ci([x['segment_gap_p95_ms'] for x in p]), ci([x['segment_gap_mean_ms'] for x in p]),
              len(g), pct(g, .5), pct(g, .95), pct(gn, .95), '%d / %d' % (sum(x['in_uplink_silence'] for x in rows), sum(x['met_downlink_silence'] for x in rows)), ', '.join('%.1f' % (100 * r['buffering_ratio']) for r in rs)))
    print()
    print('With the switch rule of c27dc75 (recomputed from the traces; the players here ran without it):')
    print()
    print('| scheme | gaps | of which switches | pooled p50 | pooled p95 | switch gaps p50 |')
    print('| --- | --- | --- | --- | --- | --- |')
    for s in ['vivace', 'tcp-cubic']:
        rs = runs_of(res, s)
        g = []; sw = []
        for r in rs:
            d = run_dir(base, s, r)
            g += [x['gap'] for x in analyse(d, up, down)]
            sw += switch_gaps(d)
        print('| %s | %d | %d | %.0f | %.0f | %.0f |' % (s, len(g) + len(sw), len(sw), pct(g + sw, .5), pct(g + sw, .95), pct(sw, .5) if sw else float('nan')))
    print()
    print('Breakdown of the back-to-back gaps, pooled over the runs (ms, p50 / p95; gaps that met a silence of either direction left out, listed below):')
    print()
    print('| scheme | gaps | gap | dash.js asks (after the last byte) | loader to QUIC stream | uplink (20 ms propagation + queue) | origin: REQUEST parsed to first datagram sent | downlink: first datagram sent to received | worker: first datagram to first progress report | request to first byte (TCP, not split) |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for s in ['vivace', 'tcp-cubic']:
        rows = gap_rows(base, res, s)
        rows = [x for x in rows if not x['in_uplink_silence'] and not x['met_downlink_silence']]
        def c(k):
            v = [x[k] for x in rows if x.get(k) is not None]
            return '%.0f / %.0f' % (pct(v, .5), pct(v, .95)) if v else '-'
        print('| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |' % (s, len(rows), c('gap'), c('dash_wait'), c('loader'), c('uplink'), c('origin'), c('downlink'), c('report'), c('request_to_first_byte')))
    print()
    print('Back-to-back gaps that met a silence (uplink: the request was sent into it; downlink: nothing could arrive for a while before the first byte):')
    print()
    for s, rep, d in each_run(base, res):
        for x in analyse(d, up, down):
            if x['in_uplink_silence'] or x['met_downlink_silence']:
                print('- %s/%d %s (%s): asked at link %.2f s, gap %.0f ms, of which uplink %s ms (the request\'s queueing on the link %s ms), downlink %s ms' % (s, rep, x['path'], 'uplink silence' if x['in_uplink_silence'] else 'downlink silence', x['req_link_s'], x['gap'], '%.0f' % x['uplink'] if x.get('uplink') is not None else '-', x.get('uplink_queue', '-'), '%.0f' % x['downlink'] if x.get('downlink') is not None else '-'))
    print()
    print('What each run\'s video requests were doing in the uplink\'s long silences (ms of overlap; download = a segment was being received, b2b-gap = a back-to-back request waited, dash-wait+gap = dash.js had not asked yet, full buffer):')
    print()
    for s, rep, d in each_run(base, res):
        roles = silence_roles(d, up)
        print('- %s/%d: ' % (s, rep) + '; '.join('%.2f-%.2f s: %s' % (x['silence_s'][0], x['silence_s'][1], ', '.join('%s %.0f' % kv for kv in x['overlap_ms'].items()) or 'no video transfer') for x in roles if x['silence_s'][0] > 5))
    print()
