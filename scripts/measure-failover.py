#!/usr/bin/env python3
"""Failover time of Herald's consumer groups after a worker is killed with SIGKILL.

Starts `herald broker`, two workers (`herald run --brokers B --stages
match,compose,schedule,assets`), waits until both hold partitions and the groups are quiet,
kills one with SIGKILL and measures, per consumer group, how long until the survivor is
assigned partitions again (it logs `partitions assigned`; it fetches from there at once).

    scripts/measure-failover.py [--herald .build/debug/herald] [--rounds 3] [-- extra run flags]

With --static-restart the workers run with --instance-id worker-a / worker-b (static group
membership) and the killed worker is restarted at once under the same ID: with static
membership honoured, it takes its partitions back and the survivor sees no rebalance.
"""
import argparse, os, re, signal, subprocess, sys, tempfile, threading, time

GROUPS = 4  # match, compose, schedule, assets


class Process:
    def __init__(self, name, argv):
        self.name = name
        self.lines = []  # (monotonic time, line)
        self.lock = threading.Lock()
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stderr:
            with self.lock:
                self.lines.append((time.monotonic(), line.rstrip("\n")))
            if os.environ.get("FAILOVER_VERBOSE"):
                print(f"[{self.name}] {line}", end="", file=sys.stderr)

    def matching(self, pattern, since=0.0):
        with self.lock:
            return [(t, l) for t, l in self.lines if t >= since and re.search(pattern, l)]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise SystemExit(f"timed out waiting for {what}")


def one_round(herald, extra, number, static_restart=False):
    work = tempfile.mkdtemp()
    bootstrap_file = os.path.join(work, "bootstrap")
    prefix = f"fo{number}{os.getpid()}."
    broker = Process("broker", [herald, "broker", "--partitions", "6", "--topic-prefix", prefix, "--bootstrap-file", bootstrap_file])
    workers = []
    try:
        wait_for(lambda: os.path.exists(bootstrap_file) and open(bootstrap_file).read().strip(), 30, "the broker")
        brokers = open(bootstrap_file).read().strip()
        def worker(name):
            identity = ["--instance-id", f"worker-{name}"] if static_restart else []
            return Process(name, [
                herald, "run", "--brokers", brokers, "--topic-prefix", prefix, "--stages", "match,compose,schedule,assets",
                "--http-host", "127.0.0.1", "--http-port", "0"] + identity + extra)
        for name in ("a", "b"):
            workers.append(worker(name))
        a, b = workers
        # Both members hold partitions of every group and nothing has moved for 4 s.
        def settled():
            now = time.monotonic()
            events = a.matching("partitions (assigned|revoked)") + b.matching("partitions (assigned|revoked)")
            if len(a.matching("partitions assigned")) < GROUPS or len(b.matching("partitions assigned")) < GROUPS:
                return False
            return now - max(t for t, _ in events) > 4.0
        wait_for(settled, 90, "both workers to hold partitions")
        killed = time.monotonic()
        a.proc.send_signal(signal.SIGKILL)
        a.proc.wait()
        if static_restart:
            restarted = worker("a")
            workers.append(restarted)
            back = wait_for(lambda: (lambda m: m if len(m) >= GROUPS else None)(restarted.matching("partitions assigned")),
                            90, "the restarted worker to get partitions")
            revoked = b.matching("partitions revoked", since=killed)
            return sorted(t - killed for t, _ in back[:GROUPS]), len(revoked)
        assigned = wait_for(lambda: (lambda m: m if len(m) >= GROUPS else None)(b.matching("partitions assigned", since=killed)),
                            90, "the survivor to take over")
        times = sorted(t - killed for t, _ in assigned[:GROUPS])
        return times
    finally:
        for process in workers + [broker]:
            process.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--herald", default=".build/debug/herald")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--static-restart", action="store_true")
    parser.add_argument("extra", nargs="*")
    options = parser.parse_args()
    if options.static_restart:
        print("| round | restarted worker has its partitions after SIGKILL (s) | rebalances seen by the survivor |")
        print("|---|---|---|")
        for number in range(1, options.rounds + 1):
            times, revoked = one_round(options.herald, options.extra, number, static_restart=True)
            print(f"| {number} | {', '.join(f'{t:.1f}' for t in times)} | {revoked} |", flush=True)
        return
    print("| round | groups taken over after SIGKILL (s) | slowest (s) |")
    print("|---|---|---|")
    slowest = []
    for number in range(1, options.rounds + 1):
        times = one_round(options.herald, options.extra, number)
        slowest.append(times[-1])
        print(f"| {number} | {', '.join(f'{t:.1f}' for t in times)} | {times[-1]:.1f} |", flush=True)
    print(f"worst of {options.rounds}: {max(slowest):.1f} s")


if __name__ == "__main__":
    main()
