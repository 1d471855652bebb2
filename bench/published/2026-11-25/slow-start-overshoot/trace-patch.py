# Adds the slow-start trace prints (stderr) to vivace_slow_start.c; run from a tree root, build pcc-replay, never commit
p='controller-wasm/src/algorithms/vivace_slow_start.c'
s=open(p).read()
s=s.replace('#include <math.h>','#include <math.h>\n#include <stdio.h>',1)
a='''    if (s->slow_start_have_best && utility < s->slow_start_best_utility - margin) {
        if (measurement_error_only(s, r)) return; /* the doubling goes on */'''
assert a in s
s=s.replace(a,'''    fprintf(stderr, "slow-start result: target %.2f sent %.2f delivered %.2f Mbit/s, g %.3f, lost %d, u %.1f; best u %.1f at %.2f Mbit/s, margin %.1f, delivery_max %.1f, recovery_target %.2f\\n", r->stats.target_rate_bps/1e6, r->stats.send_rate_bps/1e6, r->stats.throughput_bps/1e6, r->stats.rtt_gradient, (int)r->stats.packets_lost, utility, s->slow_start_best_utility, s->slow_start_best_rate*8e-6, margin, s->delivery_max*8e-6, s->recovery_target*8e-6);
    if (s->slow_start_have_best && utility < s->slow_start_best_utility - margin) {
        if (measurement_error_only(s, r)) { fprintf(stderr, "  drop forgiven (measurement_error_only)\\n"); return; } /* the doubling goes on */''',1)
a='''        s->recovery_target = 0.0;
        vivace_enter_probing(s, fallback);'''
assert a in s
s=s.replace(a,'''        fprintf(stderr, "  EXIT: best %.2f, exit_delivered %.2f, delivery_pipe %.2f -> base %.2f Mbit/s\\n", s->slow_start_best_rate*8e-6, delivered*8e-6, pipe*8e-6, fallback*8e-6);
        s->recovery_target = 0.0;
        vivace_enter_probing(s, fallback);''',1)
open(p,'w').write(s)
