-- harness4j schema version 1: the shared run queue.
-- One row per queue entry; a claim is a lease (worker, run_id, lease_until) renewed by the worker's
-- heartbeat; run_id changes at every claim and is the fencing token a result write checks.
CREATE TABLE h4j_queue (
    id            text PRIMARY KEY,
    seq           bigserial NOT NULL,
    bench         text,
    plan_key      text,
    spec          jsonb NOT NULL,
    harness       text NOT NULL,
    provider      text NOT NULL,
    state         text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'interrupted')),
    attempts      integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    max_attempts  integer NOT NULL CHECK (max_attempts >= 1),
    enqueued_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    not_before    timestamptz,
    run_id        text,
    worker        text,
    owner         jsonb,
    lease_until   timestamptz,
    started_at    timestamptz,
    last_outcome  text,
    reason        text,
    updated_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    CHECK (state <> 'running' OR run_id IS NOT NULL)
);
-- a plan queued twice (two machines planning the same bench) queues each run once
CREATE UNIQUE INDEX h4j_queue_plan_key ON h4j_queue (bench, plan_key) WHERE plan_key IS NOT NULL;
CREATE INDEX h4j_queue_due ON h4j_queue (seq) WHERE state = 'queued';
CREATE INDEX h4j_queue_running ON h4j_queue (lease_until) WHERE state = 'running';
CREATE INDEX h4j_queue_running_by ON h4j_queue (harness, provider) WHERE state = 'running';
CREATE INDEX h4j_queue_active ON h4j_queue (seq) WHERE state IN ('queued', 'running', 'interrupted');

-- one row per attempt (claim): who ran it and when, in the database's own clock
CREATE TABLE h4j_attempt (
    run_id      text PRIMARY KEY,
    entry_id    text NOT NULL REFERENCES h4j_queue (id) ON DELETE CASCADE,
    attempt     integer NOT NULL,
    worker      text NOT NULL,
    harness     text NOT NULL,
    provider    text NOT NULL,
    started_at  timestamptz NOT NULL,
    ended_at    timestamptz,
    outcome     text
);
CREATE INDEX h4j_attempt_entry ON h4j_attempt (entry_id);

-- concurrency caps over every worker: at most cap running entries of a harness / of a provider
CREATE TABLE h4j_cap (
    kind  text NOT NULL CHECK (kind IN ('harness', 'provider')),
    name  text NOT NULL,
    cap   integer NOT NULL CHECK (cap >= 1),
    PRIMARY KEY (kind, name)
);

-- a rate limit seen by any worker pauses the provider for every worker until it resets
CREATE TABLE h4j_provider_pause (
    provider  text PRIMARY KEY,
    until     timestamptz NOT NULL,
    reason    text
);
