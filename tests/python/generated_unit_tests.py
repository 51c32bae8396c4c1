#!/usr/bin/python3
"""Runs the ppu_op_unit_test file of a demo report for real, under CPU PyTorch.

    generated_unit_tests.py ASYS_BINARY

Generates the demo report (asys gen, as the build does), writes its unit
test file with asys stats -r ppu_op_unit_test, and runs it with
--device cpu --top 5 --repeat 2. Checks that every test --list names ran and
printed its timing beside the report's average (the table's Avg), that the
operator no test was generated for is reported with its reason, and that the
run exits 0. A test whose operator this PyTorch does not have is reported as
skipped; that is accepted only when PyTorch itself, asked here, lacks it.

Exits 77 (CTest's "skipped"), saying why, when torch cannot be imported:
scripts/setup-torch.sh installs Debian's python3-torch. With
ASYS_REQUIRE_TORCH=1 (scripts/test.sh sets it once setup-torch.sh has made
torch importable) a torch that does not import is a failure instead.
"""
import csv
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import torch
except ImportError as e:
    if os.environ.get("ASYS_REQUIRE_TORCH") == "1":
        print(f"FAILED: ASYS_REQUIRE_TORCH=1 (scripts/setup-torch.sh reported torch importable) "
              f"but {sys.executable} cannot import torch ({e})", file=sys.stderr)
        sys.exit(1)
    print(f"SKIPPED: CPU PyTorch is not installed for {sys.executable} ({e}); "
          "scripts/setup-torch.sh installs python3-torch", file=sys.stderr)
    sys.exit(77)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)


def has_operator(target):
    op = torch.ops
    try:
        for part in target.split(".")[2:]:
            op = getattr(op, part)
    except (AttributeError, RuntimeError):
        return False
    return True


def main():
    asys = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "demo.asysrep"
        gen = run([asys, "gen", "--seed", "7", "--scale", "1", "--profile", "base", "-o", str(report)])
        assert gen.returncode == 0, gen.stderr
        stats = run([asys, "stats", "-r", "ppu_op_unit_test", "--output", ".", str(report)])
        assert stats.returncode == 0, stats.stderr
        py = Path(tmp) / "demo_ppu_op_unit_test.py"
        assert f"wrote {py}" in stats.stderr, stats.stderr
        with open(Path(tmp) / "demo_ppu_op_unit_test.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        tests = [r for r in rows if r["Not Generated"] == "-"]
        not_generated = [r for r in rows if r["Not Generated"] != "-"]
        assert len(tests) >= 5 and not_generated, rows

        listed = run([sys.executable, str(py), "--list", "--top", "5"])
        assert listed.returncode == 0, listed.stderr
        names = [line.split(":")[0] for line in listed.stdout.splitlines() if not line.startswith(("not generated", "  "))]
        assert names == [r["Test"] for r in tests[:5]], (names, listed.stdout)

        result = run([sys.executable, str(py), "--device", "cpu", "--top", "5", "--repeat", "2"])
        print(result.stdout, end="")
        assert result.returncode == 0, result.stdout + result.stderr
        lines = {line.split(":")[0]: line for line in result.stdout.splitlines() if not line.startswith(" ")}
        timed = 0
        for row in tests[:5]:
            name, line = row["Test"], lines.get(row["Test"], "")
            target = row["OP Name"].split(" | ")[0][len("TorchFunction: "):]
            timing = re.fullmatch(rf"{name}: (\d+) ns measured on cpu \(avg of 2\), (\d+) ns in the report \(avg of (\d+)\)", line)
            if timing:
                assert timing.group(2) == row["Avg (ns)"] and timing.group(3) == row["Instances"], (line, row)
                assert int(timing.group(1)) > 0, line
                timed += 1
            else:
                assert line == f"{name}: skipped: {target} is not in PyTorch {torch.__version__}", line
                assert not has_operator(target), f"{target} exists in this PyTorch but was skipped"
        assert timed >= 4, result.stdout
        assert f"not generated ({len(not_generated)}):" in result.stdout, result.stdout
        for row in not_generated:
            assert f"  {row['Test']}: " in result.stdout and row["Not Generated"] in result.stdout, row
    print(f"ok: {timed} of 5 tests timed under PyTorch {torch.__version__}, "
          f"{len(not_generated)} operator(s) reported as not generated")


if __name__ == "__main__":
    main()
