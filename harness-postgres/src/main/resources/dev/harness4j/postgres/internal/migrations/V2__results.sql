-- harness4j schema version 2: results. meta.json as jsonb, plus the columns summaries and
-- filters read (so a summary never parses jsonb), and the small artifacts under a size cap.
CREATE TABLE h4j_result (
    run_id          text PRIMARY KEY,
    entry_id        text,
    bench           text,
    worker          text,
    dir             text NOT NULL,
    worker_dir      text,
    meta            jsonb NOT NULL,
    written_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    harness         text NOT NULL,
    provider        text,
    model           text,
    task            text,
    outcome         text NOT NULL,
    reason          text,
    trial           integer NOT NULL,
    duration_ms     bigint,
    files_changed   bigint,
    insertions      bigint,
    deletions       bigint,
    tokens_in       bigint,
    tokens_out      bigint,
    token_source    text,
    cost_usd        numeric,
    cost_source     text,
    served_verdict  text,
    branch          text,
    verify_status   text,
    reward          double precision
);
CREATE INDEX h4j_result_bench ON h4j_result (bench, dir);
CREATE INDEX h4j_result_task ON h4j_result (task);
CREATE INDEX h4j_result_combo ON h4j_result (harness, provider, model);

CREATE TABLE h4j_artifact (
    run_id     text NOT NULL REFERENCES h4j_result (run_id) ON DELETE CASCADE,
    name       text NOT NULL,
    content    bytea NOT NULL,
    size       bigint NOT NULL,
    truncated  boolean NOT NULL,
    full_path  text,
    PRIMARY KEY (run_id, name)
);
