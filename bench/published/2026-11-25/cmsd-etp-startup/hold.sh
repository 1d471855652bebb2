#!/usr/bin/env bash
# One heavy-lock hold (run under `flock /tmp/pcc-heavy.lock`): 30-s ABR runs of the lte-suite trace SCEN, ARM:REP in
# the order given, each into OUT/SCEN/ARM, through ../lte-fade-cut-regain/hold.sh (its notes and git status go to this
# folder). Arms differ by the origin's --etp-source (server README "CMCD in, CMSD out"): vv = vivace-video, measured
# (passed explicitly so results.jsonl records it); vvp = vivace-video, pacing (the rule before); bbr = tcp-bbr (its
# etp is the kernel's; the flag does not touch it, passed the same so all three arms' origins take it).
# Usage: hold.sh OUT SCEN LATEST_START_HHMM ARM:REP...   (rc 3: the lock came after LATEST_START_HHMM UTC)
here=$(cd "$(dirname "$0")" && pwd)
export HOLD_DIR=$here
export ARM_vv="vivace-video --origin-arg=--etp-source=measured"
export ARM_vvp="vivace-video --origin-arg=--etp-source=pacing"
export ARM_bbr="tcp-bbr --origin-arg=--etp-source=measured"
exec bash "$here/../lte-fade-cut-regain/hold.sh" "$@"
