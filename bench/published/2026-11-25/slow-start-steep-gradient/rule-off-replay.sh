#!/bin/sh
# usage: rule-off-replay.sh PCC_REPLAY [--check | --mi] RECORDING: replays RECORDING with slow_start_forward_gradient=0
# (the parameter line right after `create`), i.e. the controller as it was before 8d78b40's rule (annotate.py's base).
replay=$1; mode=$2; rec=$3
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
awk '{print} /^create /{print "param slow_start_forward_gradient 0"}' "$rec" > "$tmp"
"$replay" $mode "$tmp"
