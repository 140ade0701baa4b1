#!/usr/bin/env python3
"""How far past `go movetime T` an engine's `bestmove` comes, through a pipe (docs/engine.md).

usage: scripts/ugi-margin.py <emergo binary> <MoveOverhead ms> <T ms> <moves>

The engine plays a game against itself, one `go movetime T` per move (a new game when one ends);
prints the median, 90th and 99th percentile and the worst of (answer time - T), in ms.
"""
import statistics
import subprocess
import sys
import time


def main():
    exe, overhead, movetime, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    engine = subprocess.Popen([exe, "ugi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("the engine ended")
            if line.startswith(prefix):
                return line.split()

    send("ugi")
    until("ugiok")
    send(f"setoption name MoveOverhead value {overhead}")
    moves, past = [], []
    for _ in range(count):
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send("isready")
        until("readyok")
        started = time.perf_counter()
        send(f"go movetime {movetime}")
        best = until("bestmove")[1]
        past.append((time.perf_counter() - started) * 1000 - movetime)
        moves = [] if best == "0000" else moves + [best]
    send("quit")
    past.sort()
    at = lambda f: past[min(len(past) - 1, int(f * len(past)))]
    print(f"MoveOverhead {overhead}: {count} moves, past movetime {movetime} ms: "
          f"median {statistics.median(past):+.1f} ms, 90% {at(0.9):+.1f}, "
          f"99% {at(0.99):+.1f}, worst {past[-1]:+.1f}")


if __name__ == "__main__":
    main()
