#!/usr/bin/env python3
"""Gives a Casefile index the history a year of nightly runs leaves, for the benchmark (make bench):

- G earlier groups beside the ones the index already holds, as a year's long tail of bugs seen a few times (a third
  of them resolved), copies of those groups' rows under fingerprints of their own;
- N earlier inputs, each with one report and one crash occurrence, spread Zipf-like over all those groups, the index's
  own first (so its largest group gets about a twelfth of them), with app versions, OS versions and devices;
- M stored symbol answers, 20,000 for each of M / 20,000 builds no inbox crash comes from.

    Scripts/make-history.py INDEX [--groups G] [--reports N] [--symbols M] [--seed S]

The inputs' paths lie in a folder no run lists, as an inbox whose inputs are moved away once read leaves them. Run
it on an index a `casefile run` wrote (it needs that run's groups), with no run going on.
"""

import argparse
import random
import sqlite3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("index")
    parser.add_argument("--groups", type=int, default=50_000)
    parser.add_argument("--reports", type=int, default=1_000_000)
    parser.add_argument("--symbols", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    if arguments.reports < 1 or arguments.groups < 0:
        raise SystemExit("make-history.py: --reports must be at least 1 and --groups at least 0")
    rng = random.Random(arguments.seed)
    db = sqlite3.connect(arguments.index, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("BEGIN")
    groups = [row[0] for row in db.execute(
        "SELECT id FROM groups WHERE status != 'merged' ORDER BY occurrences DESC, id")]
    if not groups:
        raise SystemExit("make-history.py: the index holds no groups; run casefile on an inbox first")
    run = db.execute("SELECT MIN(id) FROM runs").fetchone()[0]
    earlier = []
    if arguments.groups > 0:
        # Each a copy of one of the index's groups (kind, title, explanation), under a fingerprint of 16 hex digits no
        # fingerprint of the inbox has; counted below, with the history's occurrences.
        first_group = db.execute("SELECT COALESCE(MAX(id), 0) FROM groups").fetchone()[0] + 1
        models = db.execute(
            "SELECT kind, resolution, title, rules_version, explanation_json FROM groups WHERE id IN (%s) ORDER BY id"
            % ", ".join(map(str, groups))).fetchall()
        db.executemany("""
            INSERT INTO groups (id, fingerprint, kind, resolution, title, status, occurrences, first_seen, last_seen,
                                first_run_id, last_run_id, rules_version, explanation_json, resolved_at,
                                resolved_in_version, title_input)
            VALUES (?, ?, ?, ?, ?, ?, 0, '2026-01-01 03:00:00.000', '2026-01-01 03:00:00.000', ?, ?, ?, ?, ?, ?, ?)""",
            ((first_group + i, "f%015x" % i, *models[i % len(models)][:3],
              "resolved" if i % 3 == 2 else "ongoing", run, run, *models[i % len(models)][3:],
              "2026-02-01 09:00:00.000" if i % 3 == 2 else None, "2.1.0" if i % 3 == 2 else None,
              "/srv/casefile/done/2026-01-01/report-%07d.ips" % i)
             for i in range(arguments.groups)))
        earlier = list(range(first_group, first_group + arguments.groups))
        groups += earlier
    weights = [1 / (rank + 1) for rank in range(len(groups))]
    db.execute("CREATE TEMP TABLE history_groups (i INTEGER PRIMARY KEY, group_id INTEGER NOT NULL)")
    # Every earlier group has an occurrence; the rest fall Zipf-like.
    each = earlier[:arguments.reports]
    db.executemany(
        "INSERT INTO history_groups VALUES (?, ?)",
        enumerate(each + rng.choices(groups, weights=weights, k=arguments.reports - len(each))))
    first = (db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'inputs'").fetchone() or (0,))[0] + 1
    numbers = "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)"
    db.execute(numbers + """
        INSERT INTO inputs (id, sha256, path, kind, status, run_id, indexed_at, signature)
        SELECT ? + i, printf('%064x', 9000000000 + i),
               printf('/srv/casefile/done/2026-%02d-%02d/report-%07d.ips', 1 + i / 90000 % 12, 1 + i / 3000 % 28, i),
               'file', 'indexed', ?, '2026-01-01 03:00:00.000', printf('f:%d:%d:%d', 80000 + i % 300000, i, i)
        FROM n""", (arguments.reports, first, run))
    db.execute(numbers + """
        INSERT INTO reports (id, input_id, run_id, format, root, device_model, system_version, app_version,
                             view_snapshots, event_count, failure_count, warning_count, summary_path, indexed_at)
        SELECT printf('history-%07d', i), ? + i, ?, 'ips', '', printf('iPhone%d,%d', 12 + i % 4, 1 + i % 3),
               printf('17.%d', i % 6), printf('2.%d.%d', i / 7 % 20, i % 5), 0, 0, 0, 0,
               printf('reports/history-%07d.md', i), '2026-01-01 03:00:00.000'
        FROM n""", (arguments.reports, first, run))
    db.execute("""
        INSERT INTO occurrences (group_id, report_id, source, seq, run_id, fingerprint, rules_version, app_version,
                                 os_version, device_model)
        SELECT h.group_id, printf('history-%07d', h.i), 'crash', 0, ?, g.fingerprint, g.rules_version,
               printf('2.%d.%d', h.i / 7 % 20, h.i % 5), printf('17.%d', h.i % 6),
               printf('iPhone%d,%d', 12 + h.i % 4, 1 + h.i % 3)
        FROM history_groups h JOIN groups g ON g.id = h.group_id""", (run,))
    db.execute("CREATE TEMP TABLE history_counts AS SELECT group_id, COUNT(*) AS n FROM history_groups GROUP BY group_id")
    db.execute("CREATE UNIQUE INDEX temp.history_counts_by_group ON history_counts (group_id)")
    db.execute("""
        UPDATE groups SET occurrences = occurrences + (SELECT n FROM history_counts c WHERE c.group_id = groups.id)
        WHERE id IN (SELECT group_id FROM history_counts)""")
    if arguments.symbols > 0:
        db.execute(numbers + """
        INSERT OR IGNORE INTO symbol_cache (uuid, address, backend, locations_json)
        SELECT printf('%08x-4e1d-4a0b-9c3e-000000000000', 3000000000 + i / 20000), 4295000000 + i % 20000 * 4, 'dwarf',
               printf('[{"column":9,"demangledName":"ShopApp.Feature%dViewModel.load%d() -> ()","file":"/src/Feature%d.swift","line":%d,"rawName":"$s7ShopApp8Feature%dC4loadyyF","simpleName":"Feature%dViewModel.load%d()"}]',
                      i % 300, i % 50, i % 300, i % 700, i % 300, i % 300, i % 50)
        FROM n""", (arguments.symbols,))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    print("history: %d earlier inputs and reports over %d groups (%d of them earlier than the inbox's), %d stored "
          "symbol answers" % (arguments.reports, len(groups), arguments.groups, arguments.symbols))


if __name__ == "__main__":
    main()
