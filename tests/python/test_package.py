"""The Python package against the CLI: for every rule on the demo pair, the
DataFrame's CSV is the CLI's bytes; integers stay exact past 2^53; options
as keyword arguments mean what the CLI's spelling means; bad input fails in
one line."""

import os

import pandas as pd
import pytest

import asys
from conftest import run_cli

def single_rules():
    return [(name, command) for command in ("stats", "analyze") for name in asys.rules(command)
            if not asys.report._RULES[name]["compare"]]


def compare_rules():
    return [name for name in asys.rules() if asys.report._RULES[name]["compare"]]


def cli_table(tmp_path, command, rule, reports, *options):
    """The CLI's CSV of one rule (written to a file, so that a rule's own
    files land in tmp_path too), or its one-line error."""
    out = str(tmp_path) + "/"
    done = run_cli(command, "-r", rule, "--output", out, *options, *reports, check=False)
    if done.returncode != 0:
        return None, done.stderr.decode().strip()
    with open(os.path.join(out, rule + ".csv"), "rb") as f:
        return f.read(), None


def frame_bytes(frame):
    return asys.to_csv(frame).encode("utf-8", "surrogateescape")


@pytest.mark.parametrize("rule,command", single_rules())
@pytest.mark.parametrize("which", [0, 1], ids=["base", "slow"])
def test_every_rule_equals_the_cli(tmp_path, demo_pair, rule, command, which):
    report = demo_pair[which]
    expected, error = cli_table(tmp_path, command, rule, [report])
    with asys.open(report) as r:
        if error is not None:
            with pytest.raises(asys.AsysError) as raised:
                r.run(rule, command)
            assert str(raised.value) in error
            return
        frame = getattr(r, command)(rule)
    assert frame_bytes(frame) == expected
    # A rule's own files (ppu_op_unit_test's tests), as the CLI wrote them.
    for name, text in frame.attrs["files"].items():
        with open(os.path.join(tmp_path, name), "rb") as f:
            assert f.read() == text


@pytest.mark.parametrize("rule", compare_rules())
def test_every_compare_rule_equals_the_cli(tmp_path, demo_pair, rule):
    expected, error = cli_table(tmp_path, "stats", rule, list(demo_pair))
    assert error is None, error
    assert frame_bytes(asys.compare(*demo_pair, rule)) == expected


def test_columns_keep_their_types(demo_pair):
    with asys.open(demo_pair[0]) as r:
        frame = r.stats("hggc_ppu_kern_sum")
    assert frame.index.name == "Row#" and frame.index[0] == 1
    assert str(frame["Total Time (ns)"].dtype) == "Int64"
    assert str(frame["Time (%)"].dtype) == "Float64"
    assert str(frame["Name"].dtype) == "string"
    assert [c["name"] for c in frame.attrs["columns"]][:2] == ["Time", "Total Time"]
    assert frame.attrs["columns"][1]["unit"] == "ns"


def test_integers_exact_past_two_to_the_53(edge_report):
    # tests/golden/cases/edge_osrt_sum.case works these out by hand.
    with asys.open(edge_report) as r:
        frame = r.stats("osrt_sum")
    poll = frame[frame["Name"] == "poll"].iloc[0]
    assert poll["Total Time (ns)"] == 60000000011
    assert poll["StdDev (ns)"] == 8164965806
    with asys.open(edge_report) as r:
        calls = r.stats("hggc_api_trace")
    launches = calls[calls["Name"] == "hggcLaunchKernel"]["Start (ns)"]
    assert launches.dtype == pd.Int64Dtype()
    # The fixture's i-th launch starts at 1700000000000000000 + 10000 i:
    # 1.7e18 + 10000 is not a double, so a float column could not hold it.
    starts = [int(v) for v in launches.iloc[:3]]
    assert starts == [1700000000000000000 + 10000 * i for i in range(3)]
    assert float(starts[1]) != starts[1]  # through a double it would not be exact


def test_missing_cells_are_na_and_written_as_dash(demo_pair):
    with asys.open(demo_pair[0]) as r:
        trace = r.stats("hggc_ppu_trace")
    memcpy = trace[trace["Name"].str.startswith("Memcpy")].iloc[0]
    assert pd.isna(memcpy["GrdX"]) and memcpy["Bytes (bytes)"] > 0
    line = asys.to_csv(trace.loc[[memcpy.name]]).splitlines()[1]
    assert ',"-",' in line


@pytest.mark.parametrize("command,kwargs,cli_spec,cli_args", [
    ("stats", dict(base=True), "hggc_ppu_kern_sum:base", []),
    ("stats", dict(mangled=True), "hggc_ppu_kern_sum:mangled", []),
    ("stats", dict(rows=3, device=[2, 3]), "hggc_ppu_kern_sum:rows=3:device=2/3", []),
    ("stats", dict(no_graph_mapping=True, range_include=["forward.*", "back/ward"]),
     "hgtx_kern_sum:no-graph-mapping:range-include=forward.*/back\\/ward", []),
    ("analyze", dict(gap=0, rows=5), "ppu_gaps:gap=0:rows=5", []),
    ("stats", dict(filter_time=(210000000, 400000000)), "hggc_ppu_kern_sum", ["--filter-time", "210000000/400000000"]),
    ("stats", dict(filter_time="210000000/400000000"), "hggc_ppu_kern_sum", ["--filter-time", "210000000/400000000"]),
])
def test_keyword_options_mean_the_cli_spelling(demo_pair, command, kwargs, cli_spec, cli_args):
    rule = cli_spec.split(":")[0]
    done = run_cli(command, "-r", cli_spec, *cli_args, demo_pair[0])
    with asys.open(demo_pair[0]) as r:
        frame = getattr(r, command)(rule, **kwargs)
        assert frame_bytes(frame) == done.stdout
        assert kwargs.get("base") or kwargs.get("no_graph_mapping") or frame_bytes(frame) != frame_bytes(
            getattr(r, command)(rule)), "the options changed nothing: a weak case"


def test_compare_takes_options_and_reports(demo_pair):
    done = run_cli("stats", "-r", "ppu_kernel_summary_compare:matched-only:base", *demo_pair)
    with asys.open(demo_pair[0]) as base:
        frame = asys.compare(base, demo_pair[1], "ppu_kernel_summary_compare", matched_only=True, base=True)
    assert frame_bytes(frame) == done.stdout


def test_analyze_without_a_rule_runs_every_expert_rule(demo_pair):
    with asys.open(demo_pair[0]) as r:
        tables = r.analyze()
    assert sorted(tables) == sorted(asys.rules("analyze"))
    for rule, frame in tables.items():
        assert frame_bytes(frame) == run_cli("analyze", "-r", rule, demo_pair[0]).stdout


def test_global_options_as_keywords(demo_pair):
    config = "Custom=hgtx:.*"
    done = run_cli("stats", "-r", "ppu_op_sum", "--ppu-op-config", config, demo_pair[0])
    with asys.open(demo_pair[0]) as r:
        frame = r.stats("ppu_op_sum", ppu_op_config=[config])
        assert frame_bytes(frame) == done.stdout
        assert frame_bytes(frame) != frame_bytes(r.stats("ppu_op_sum"))


def test_bad_input_fails_in_one_line(tmp_path, demo_pair):
    missing = str(tmp_path / "none.asysrep")
    with pytest.raises(asys.AsysError) as raised:
        asys.open(missing)
    assert missing in str(raised.value) and "\n" not in str(raised.value)
    not_a_report = tmp_path / "junk.asysrep"
    not_a_report.write_bytes(b"not a report\n")
    with pytest.raises(asys.AsysError):
        asys.open(str(not_a_report))
    with asys.open(demo_pair[0]) as r:
        with pytest.raises(asys.AsysError, match="unknown rule 'no_such_rule'"):
            r.stats("no_such_rule")
        with pytest.raises(asys.AsysError, match="is a rule of asys analyze"):
            r.stats("ppu_gaps")
        with pytest.raises(asys.AsysError, match="compares two reports"):
            r.stats("ppu_kernel_summary_compare")
        with pytest.raises(asys.AsysError, match="unknown option"):
            r.stats("hggc_ppu_kern_sum", no_such_option=True)
        with pytest.raises(asys.AsysError, match="filter-time|filter_time"):
            r.stats("hggc_ppu_kern_sum", filter_time="later")
        # The report still answers after the errors.
        assert len(r.stats("hggc_ppu_kern_sum")) > 0


def test_closed_report_says_so(demo_pair):
    r = asys.open(demo_pair[0])
    r.close()
    with pytest.raises(asys.AsysError, match="closed"):
        r.stats("hggc_ppu_kern_sum")
