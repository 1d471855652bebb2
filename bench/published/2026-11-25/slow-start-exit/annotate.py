# usage: judge.py ... | annotate.py BASE_REPLAY FIX_REPLAY RUNS_DIR...
# Adds to each run's judgment (../blackout-recovery-4/judge.py) whether its recording replays bit for bit (pcc-replay
# --check) through the fix's controller (so the run was at it) and through the base's (so the fix changed no decision
# in that run).
import glob, json, os, subprocess, sys
base, fix, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
def check(binary, path):
    return subprocess.run([binary, '--check', path], capture_output=True).returncode == 0
for line in sys.stdin:
    row = json.loads(line)
    n = row['run'].rsplit('/', 1)[1]
    recs = [p for d in dirs if os.path.basename(d.rstrip('/')) == row['set']
            for p in glob.glob(os.path.join(d, 'runs/blackout/vivace', n, 'record', '*.replay'))]
    if recs:
        row['replays_through_fix'] = check(fix, recs[0])
        row['base_decides_same'] = check(base, recs[0])
    print(json.dumps(row))
