"""Prints the path of the `feeds loadtest --json` report with the median throughput, and each
report's throughput on standard error."""
import json
import sys

reports = sorted(sys.argv[1:], key=lambda path: json.load(open(path))["throughput_rps"])
print("feeds rounds: " + ", ".join(f'{json.load(open(p))["throughput_rps"]:.0f}' for p in sys.argv[1:]) + " req/s",
      file=sys.stderr)
print(reports[len(reports) // 2])
