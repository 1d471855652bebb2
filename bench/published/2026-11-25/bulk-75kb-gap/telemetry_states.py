# The origin's per-MI telemetry of one session (runs/.../telemetry/*.jsonl): a line each time the state or the
# rate (Mbit/s, rounded) changes, up to T_MS. Usage: telemetry_states.py TELEMETRY.jsonl [T_MS]
import sys, json
end = float(sys.argv[2]) if len(sys.argv) > 2 else 1e12
prev = None
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r['t_ms'] > end: break
    key = (r['state'], round(r['rate_bps'] / 1e6))
    if key != prev:
        print('%7.0f ms %s rate %.0f mi_rate %.0f loss %.2f u %.0f g %.3f srtt %.0f' % (
            r['t_ms'], r['state'], r['rate_bps'] / 1e6, r['mi_rate_bps'] / 1e6, r['loss_rate'], r['utility'],
            r['rtt_gradient'], r['srtt_us'] / 1e3))
    prev = key
