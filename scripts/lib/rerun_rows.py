#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Reruns committed result rows and compares them field by field.

Reads docs/results/reruns.txt: one entry per line,
    COST | NAME | COMMITTED | ROWS | IGNORE | COMMAND
  COST       quick (run by scripts/test) or full (scripts/experiments --verify)
  NAME       what the entry reruns
  COMMITTED  a CSV under docs/results/ (an experiment's table, or a study's
             grid: studies/NAME/grid.csv)
  ROWS       the rows compared: col=value;col=value (each row holding every
             value), or * (every row)
  IGNORE     columns not compared (wall-clock time), comma-separated, or -
  COMMAND    a program of the bin folder and its flags, {csv} standing for
             the table it writes; or study:NAME, which reruns each selected
             grid row by the study's runner, from its design row, in a
             folder of its own
Every column of the committed table is compared, by name, as text: a program
may have gained columns since the rows were committed, never lost one. The
rows must come out in the same number and order. Prints one line per entry
("same", or each field that moved) and exits 0 when nothing moved, 1 when
something did or a run failed, 2 on a bad list or bad arguments.

    rerun_rows.py --bin DIR [--cost quick|all] [--only NAME] [--list FILE]
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class BadList(Exception):
    pass


def read_list(path):
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            fields = [x.strip() for x in text.split("|")]
            if len(fields) != 6:
                raise BadList(f"{path}:{number}: {len(fields)} fields; expected 6 "
                              "(COST | NAME | COMMITTED | ROWS | IGNORE | COMMAND)")
            cost, name, committed, rows, ignore, command = fields
            if cost not in ("quick", "full"):
                raise BadList(f"{path}:{number}: cost '{cost}'; allowed: quick, full")
            selection = []
            if rows != "*":
                for pair in rows.split(";"):
                    if "=" not in pair:
                        raise BadList(f"{path}:{number}: rows: '{pair}' is not col=value")
                    col, value = pair.split("=", 1)
                    selection.append((col.strip(), value.strip()))
            entries.append({
                "where": f"{path}:{number}", "cost": cost, "name": name,
                "committed": os.path.join(ROOT, "docs", "results", committed),
                "rows": selection,
                "ignore": set() if ignore == "-" else {x.strip() for x in ignore.split(",")},
                "command": command.split(),
            })
    return entries


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise BadList(f"{path}: empty")
    header, body = rows[0], rows[1:]
    return header, [dict(zip(header, r)) for r in body]


def selected(header, rows, selection, what):
    for col, _ in selection:
        if col not in header:
            raise BadList(f"{what}: no column '{col}'")
    return [r for r in rows if all(r.get(c) == v for c, v in selection)]


def compare(committed_header, old_rows, new_header, new_rows, ignore):
    """The differences, as text lines; empty when every field is the same."""
    out = []
    missing = [c for c in committed_header if c not in new_header and c not in ignore]
    if missing:
        out.append("columns gone: " + ", ".join(missing))
    if len(old_rows) != len(new_rows):
        out.append(f"{len(new_rows)} rows where {len(old_rows)} were committed")
    for i, (old, new) in enumerate(zip(old_rows, new_rows)):
        for c in committed_header:
            if c in ignore or c in missing:
                continue
            if old[c] != new[c]:
                out.append(f"row {i + 1}: {c}: {old[c]} -> {new[c]}")
    return out


def run(command, cwd):
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited with {done.returncode}:\n"
                           f"{done.stdout[-2000:]}")
    return done


def rerun_program(entry, bin_dir, scratch):
    table = os.path.join(scratch, "rerun.csv")
    program = os.path.join(bin_dir, entry["command"][0])
    args = [a.replace("{csv}", table) for a in entry["command"][1:]]
    run([program] + args, scratch)
    header, rows = read_csv(table)
    return header, selected(header, rows, entry["rows"], "the rerun's table")


def rerun_study(entry, bin_dir, scratch, old_header, old_rows):
    """Each selected grid row rerun alone: its design row, and the grid's
    other seeds of that row, in a folder of the study's files, beside
    copies of every study's folder."""
    study = entry["command"][0].split(":", 1)[1]
    folder = os.path.join(ROOT, "docs", "results", "studies", study)
    design_header, design = read_csv(os.path.join(folder, "design.csv"))
    shared = [c for c in design_header if c in old_header]
    _, grid = read_csv(os.path.join(folder, "grid.csv"))
    # A study's runner may read study folders beside its own (part F asks
    # the decomposition study's verdict for its reading; the Figure 9
    # studies draw with figure9/grid.gp): copies of every study's folder
    # sit beside the rows' folders.
    studies = os.path.dirname(folder)
    for name in sorted(os.listdir(studies)):
        source = os.path.join(studies, name)
        if os.path.isdir(source):
            shutil.copytree(source, os.path.join(scratch, name))
    new_rows = []
    for k, row in enumerate(old_rows):
        matches = [d for d in design if all(d[c] == row[c] for c in shared)]
        if len(matches) != 1:
            raise BadList(f"{entry['where']}: row {k + 1} matches {len(matches)} design rows")
        here = os.path.join(scratch, f"row{k}")
        os.makedirs(here)
        for name in os.listdir(folder):  # the study's plot scripts: its runner draws the grid
            if name.endswith(".gp"):
                shutil.copy(os.path.join(folder, name), here)
        with open(os.path.join(here, "design.csv"), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(design_header)
            w.writerow([matches[0][c] for c in design_header])
        others = [g for g in grid
                  if all(g[c] == row[c] for c in shared) and g["seed"] != row["seed"]]
        with open(os.path.join(here, "grid.csv"), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(old_header)
            for g in others:
                w.writerow([g[c] for c in old_header])
        run([os.path.join(bin_dir, "study"), study, "--folder", here, "--summary", here,
             "--jobs", "1", "--bin", bin_dir], here)
        _, grid_now = read_csv(os.path.join(here, "grid.csv"))
        fresh = [g for g in grid_now
                 if all(g.get(c) == row[c] for c in shared) and g.get("seed") == row["seed"]]
        if len(fresh) != 1:
            raise RuntimeError(f"the study's runner left {len(fresh)} rows of seed {row['seed']}")
        new_rows.append(fresh[0])
    return list(new_rows[0].keys()), new_rows


def main():
    p = argparse.ArgumentParser(description="Reruns committed result rows (docs/results/reruns.txt).")
    p.add_argument("--bin", required=True, help="the folder of the programs")
    p.add_argument("--cost", choices=["quick", "all"], default="all",
                   help="quick: the quick entries only; all: every entry")
    p.add_argument("--only", help="the entries whose name starts with this")
    p.add_argument("--list", default=os.path.join(ROOT, "docs", "results", "reruns.txt"))
    a = p.parse_args()
    a.bin = os.path.abspath(a.bin)
    if not os.path.isdir(a.bin):
        print(f"rerun_rows: --bin: '{a.bin}' is not a folder", file=sys.stderr)
        return 2
    try:
        entries = read_list(a.list)
    except (BadList, OSError) as e:
        print(f"rerun_rows: {e}", file=sys.stderr)
        return 2
    chosen = [e for e in entries
              if (a.cost == "all" or e["cost"] == "quick")
              and (a.only is None or e["name"].startswith(a.only))]
    if not chosen:
        print("rerun_rows: no entry chosen", file=sys.stderr)
        return 2
    moved = 0
    for e in chosen:
        scratch = tempfile.mkdtemp(prefix="rerun_rows.")
        try:
            old_header, old_all = read_csv(e["committed"])
            old_rows = selected(old_header, old_all, e["rows"], e["committed"])
            if not old_rows:
                raise BadList(f"{e['where']}: no committed row holds {e['rows']}")
            if e["command"][0].startswith("study:"):
                new_header, new_rows = rerun_study(e, a.bin, scratch, old_header, old_rows)
            else:
                new_header, new_rows = rerun_program(e, a.bin, scratch)
            diff = compare(old_header, old_rows, new_header, new_rows, e["ignore"])
            if diff:
                moved += 1
                print(f"MOVED {e['name']} ({len(old_rows)} rows):")
                for line in diff[:40]:
                    print("    " + line)
            else:
                print(f"same  {e['name']} ({len(old_rows)} rows, "
                      f"{len([c for c in old_header if c not in e['ignore']])} fields each)")
            sys.stdout.flush()
        except BadList as err:
            print(f"rerun_rows: {err}", file=sys.stderr)
            return 2
        except (RuntimeError, OSError) as err:
            moved += 1
            print(f"FAILED {e['name']}: {err}")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"{len(chosen) - moved} of {len(chosen)} entries reran the same")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())
