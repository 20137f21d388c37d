"""benchmarks/bench_analytic_dev.py: its pure parts (predictions, cell matching, pooling) on hand-made inputs."""

from __future__ import annotations

from adamm.tests.scripts import load_script

bd = load_script("benchmarks/bench_analytic_dev.py")


def test_predictions_take_the_newest_record_of_one_system_and_scenario():
    records = [
        {"scenario": "cycling", "system": "adamm", "question": "Q1", "prediction": "old"},
        {"scenario": "cycling", "system": "rag-dense", "question": "Q1", "prediction": "flat"},
        {"scenario": "cycling", "system": "adamm", "question": "Q1", "prediction": "new"},
        {"scenario": "cycling", "system": "adamm", "question": "Q2", "prediction": None},
        {"scenario": "car_fuel", "system": "adamm", "question": "Q3", "prediction": "x"},
    ]
    got = bd.to_predictions(records, "adamm", ["cycling"])
    assert got == [{"scenario": "cycling", "question": "Q1", "prediction": "new"},
                   {"scenario": "cycling", "question": "Q2", "prediction": ""}]
    assert len(bd.to_predictions(records, "adamm")) == 3


def test_accuracy_leaves_out_ret_for_aggregate():
    report = {
        "by_type": {"AVG": {"correct": 1, "n": 4}, "RET": {"correct": 3, "n": 3}},
        "by_scenario_type": {"a/AVG": {"correct": 1, "n": 2}, "a/RET": {"correct": 1, "n": 1},
                             "b/AVG": {"correct": 0, "n": 2}, "ab/AVG": {"correct": 2, "n": 2}},
    }
    assert bd.accuracy(report) == {"correct": 4, "n": 7, "accuracy": round(4 / 7, 4)}
    assert bd.accuracy(report, exclude=("RET",))["accuracy"] == 0.25
    assert bd.accuracy(report, "a", ("RET",)) == {"correct": 1, "n": 2, "accuracy": 0.5}
    assert bd.accuracy(report, "b")["accuracy"] == 0.0  # "ab/..." is not scenario "b"
    q = bd.question_summary({"adamm": report, "rag-dense": report}, ["a"])
    assert q["a"]["adamm"]["overall"]["n"] == 3 and q["overall"]["rag-dense"]["aggregate"]["n"] == 4


def test_units_from_field_names_and_columns():
    assert bd.field_unit("distance_km") == ("length", 1000.0)
    assert bd.field_unit("moving_time_s") == ("time", 1.0)
    assert bd.field_unit("minutes") == ("time", 60.0)
    assert bd.field_unit("avg_speed_kmh") == ("speed", 1.0)
    assert bd.field_unit("total_eur") == ("money", 1.0)
    assert bd.field_unit("systolic_mmHg") is None and bd.field_unit("pages") is None
    assert bd.column_unit("mi") == ("length", 1609.344)
    assert bd.column_unit(None, "moving_time_min") == ("time", 60.0)
    assert bd.column_unit("W", "power_h") is None  # a declared unit wins over the name


def test_numbers_match_within_tolerance_and_after_unit_conversion():
    assert bd.cell_matches("systolic_mmHg", 148, 148.0)
    assert bd.cell_matches("litres", 37.88, 37.89)  # 0.011 absolute
    assert not bd.cell_matches("litres", 37.88, 38.5)
    assert bd.cell_matches("distance_km", 28.0025856, 17.4, "mi", "dist")
    assert bd.cell_matches("moving_time_s", 4680, 78, "min", "moving_time")
    assert bd.cell_matches("moving_time_s", 4680, 1.3, "h", "moving")
    assert bd.cell_matches("moving_time_s", 4680, 78, None, "moving_time_min")  # unit from the name
    assert not bd.cell_matches("moving_time_s", 4680, 78, None, "moving")
    assert bd.cell_matches("total_eur", 61.4, "61,40 €")  # a text cell holding one amount
    assert bd.cell_matches("elevation_gain_m", 0.133, 133, "m") is False
    assert bd.cell_matches("weight_kg", 17.69010243, 39.0, "lb", "weight")  # a column kept in pounds
    assert not bd.cell_matches("pulse_bpm", 66, None)
    assert not bd.cell_matches("pulse_bpm", 66, True)


def test_a_pace_in_seconds_per_km_matches_a_column_in_minutes_per_km_or_mile():
    assert bd.field_unit("pace_sec_per_km") == ("pace", 1.0)
    assert bd.cell_matches("pace_sec_per_km", 304, 5 + 4 / 60, "min/km", "pace")
    assert bd.cell_matches("pace_sec_per_km", 323.1, 8 + 40 / 60, "min/mi", "pace")
    assert not bd.cell_matches("pace_sec_per_km", 304, 5 + 4 / 60, "min/mi", "pace")


def test_text_matches_case_insensitively_or_as_whole_words():
    assert bd.cell_matches("route", "Studio commute", "studio COMMUTE")
    assert bd.cell_matches("route", "Studio commute", "Commute' (Studio commute)")
    assert bd.cell_matches("ride_type", "commute", "Studio commute")
    assert not bd.cell_matches("station", "Ventra", "Ventral Park")  # not a whole word
    assert bd.cell_matches("grade", "98", 98.0)
    assert bd.cell_matches("medication_taken", "yes", True)
    assert not bd.cell_matches("medication_taken", "no", True)
    assert not bd.cell_matches("book", "Bells", "")


def test_row_day_prefers_observed_at():
    assert bd.row_day({"observed_at": "2025-02-10T00:00:00", "time": "2025-02-13T09:00:00"}) == "2025-02-10"
    assert bd.row_day({"observed_at": None, "time": "2025-02-13T09:00:00"}) == "2025-02-13"
    assert bd.row_day({}) is None


def _table(name, columns, rows):
    return {"name": name, "columns": [{"name": c, "type": "float", "unit": u} for c, u in columns], "rows": rows}


def test_table_quality_matches_each_record_to_its_best_row_once():
    truth = [
        {"round": "D1:2", "observed": "2025-02-03", "record_type": "bp", "fields": {"sys_mmHg": 148, "dia_mmHg": 91}},
        {"round": "D1:2", "observed": "2025-02-04", "record_type": "bp", "fields": {"sys_mmHg": 139, "dia_mmHg": 88}},
        {"round": "D1:5", "observed": "2025-02-05", "record_type": "walk", "fields": {"minutes": 39, "distance_km": 3.1}},
        {"round": "D2:1", "observed": "2025-02-06", "record_type": "bp", "fields": {"sys_mmHg": 150}},
    ]
    tables = [
        _table("bp_log", [("sys", "mmHg"), ("dia", "mmHg")], [
            # both export rows of D1:2; the first row also fits the second record's day badly
            {"source": "D1:2", "observed_at": "2025-02-04T00:00:00", "sys": 139.0, "dia": 88.0},
            {"source": "D1:2", "observed_at": "2025-02-03T00:00:00", "sys": 148.0, "dia": 90.0},
            {"source": "D9:9", "observed_at": "2025-03-01T00:00:00", "sys": 1.0, "dia": 1.0},
        ]),
        _table("walk_log", [("duration", "h")], [
            {"source": "D1:5", "observed_at": None, "time": "2025-02-05T10:00:00", "duration": 0.65},
        ]),
        _table("pulse_log", [("sys", "mmHg")], [
            {"source": "D2:1", "observed_at": "2025-02-07T00:00:00", "sys": 150.0},  # wrong day
        ]),
    ]
    q = bd.table_quality(truth, tables)
    assert q["records"] == 4 and q["rows_hit"] == 3 and q["row_recall"] == 0.75
    # D1:2: 148 + (91 vs 90 is > 1 %) -> 1, 139 + 88 -> 2; walk: 39 min = 0.65 h -> 1; D2:1 wrong day -> 0
    assert q["cells"] == 7 and q["cells_hit"] == 4
    assert q["tables_per_type"] == {"bp": 1, "walk": 1}
    assert q["coverage"] == 1.0 and q["truth_rounds"] == 3
    assert q["rows_outside_truth_rounds"] == 1 and q["table_rows"] == 5
    assert q["by_field"]["walk.minutes"] == 1.0 and q["by_field"]["walk.distance_km"] == 0.0

    pooled = bd.pool_quality({"a": q, "b": bd.table_quality(truth[:1], [])})
    assert pooled["records"] == 5 and pooled["rows_hit"] == 3 and pooled["row_recall"] == 0.6
    assert pooled["covered_rounds"] == 3 and pooled["truth_rounds"] == 4
    assert pooled["record_types"] == 3 and pooled["record_types_in_one_table"] == 2


def test_match_round_is_greedy_by_fields_shared():
    recs = [{"observed": "2025-01-01", "fields": {"x_km": 1.0}},
            {"observed": "2025-01-01", "fields": {"x_km": 2.0, "y_km": 3.0}}]
    rows = [("t", {"observed_at": "2025-01-01", "a": 2.0, "b": 3.0}, [{"name": "a"}, {"name": "b"}]),
            ("t", {"observed_at": "2025-01-01", "a": 9.0}, [{"name": "a"}])]
    assert bd.match_round(recs, rows) == {1: (0, ["x_km", "y_km"]), 0: (1, [])}


def test_format_table_aligns_columns():
    text = bd.format_table([["scenario", "x"], ["cycling", "12.5"]])
    head, rule, row = text.splitlines()
    assert len(head) == len(rule) == len(row) and row.startswith("cycling ")


def test_the_outing_log_generator_writes_a_scorable_set(tmp_path):
    import json
    kinds_log = load_script("benchmarks/kinds_log.py")
    assert kinds_log.main([str(tmp_path), *(a for s in (0, 5, 6, 8, 10, 12) for a in ("--seed", str(s)))]) == 0
    assert (tmp_path / "score.py").is_file()
    for seed in (0, 5, 6, 8, 10, 12):
        dialog = json.loads((tmp_path / "dialog" / f"outings{seed}.json").read_text())
        records = [json.loads(line) for line in (tmp_path / "records" / f"outings{seed}.jsonl").read_text().splitlines()]
        rounds = {r["round"]: r["user"] for s in dialog["multi_session_dialogues"] for r in s["dialogues"]}
        # every record's kind and distance (in km, or in miles) are written in its round, in one of the layouts
        assert records and all(r["fields"]["kind"] in rounds[r["round"]].lower() and (
            str(r["fields"]["distance_km"]) in rounds[r["round"]] or str(round(r["fields"]["distance_km"] / kinds_log.MILE_KM, 1)) in rounds[r["round"]])
            for r in records)
        # several records of one round are on days of their own
        by_round: dict[str, list[str]] = {}
        for r in records:
            by_round.setdefault(r["round"], []).append(r["observed"])
        assert all(len(days) == len(set(days)) for days in by_round.values())
        counts = [q["answer_value"] for q in dialog["human-annotated QAs"] if q["question"].startswith("How many") and "km" not in q["question"]]
        assert sum(counts) == len(records)
    assert kinds_log.main([str(tmp_path), "--kinds", "a,b"]) == 2  # four kinds or a clear error


def test_the_games_log_generator_writes_a_scorable_set(tmp_path):
    import json
    games_log = load_script("benchmarks/games_log.py")
    assert games_log.main([str(tmp_path), "--seed", "0", "--seed", "1"]) == 0
    assert (tmp_path / "score.py").is_file()
    for seed in (0, 1):
        dialog = json.loads((tmp_path / "dialog" / f"games{seed}.json").read_text())
        records = [json.loads(line) for line in (tmp_path / "records" / f"games{seed}.jsonl").read_text().splitlines()]
        rounds = {r["round"]: r["user"] for s in dialog["multi_session_dialogues"] for r in s["dialogues"]}
        # every match's opponent and turns are written in its round
        assert records and all(r["fields"]["opponent"] in rounds[r["round"]] and str(r["fields"]["turns"]) in rounds[r["round"]]
                               for r in records)
        qas = {q["question"]: q["answer_value"] for q in dialog["human-annotated QAs"]}
        assert qas["How many matches did I win?"] + qas["How many matches did I lose?"] == len(records)


def test_the_spending_log_generator_writes_a_scorable_set(tmp_path):
    import json
    spend_log = load_script("benchmarks/spend_log.py")
    assert spend_log.main([str(tmp_path), "--seed", "0", "--seed", "1"]) == 0
    for seed in (0, 1):
        dialog = json.loads((tmp_path / "dialog" / f"spend{seed}.json").read_text())
        records = [json.loads(line) for line in (tmp_path / "records" / f"spend{seed}.jsonl").read_text().splitlines()]
        rounds = {r["round"]: r["user"] for s in dialog["multi_session_dialogues"] for r in s["dialogues"]}
        # every purchase's amount and shop (in any case) are written in its round
        assert records and all(f"{r['fields']['amount_usd']:.2f}" in rounds[r["round"]]
                               and r["fields"]["merchant"].lower() in rounds[r["round"]].lower() for r in records)
        qas = {q["question"]: q["answer_value"] for q in dialog["human-annotated QAs"]}
        assert sum(qas[f"How many purchases did I pay with {p}?"] for p in spend_log.PAYMENTS) == len(records)
