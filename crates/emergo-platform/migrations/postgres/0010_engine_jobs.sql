-- Engine jobs (PostgreSQL only; SQLite keeps the in-process pool): the engine's replies and hints
-- as rows that any worker process takes with SELECT ... FOR UPDATE SKIP LOCKED, holding a lease
-- (worker, leased_until) that it renews while it searches. A job whose lease ran out (its worker
-- died) is taken again. See src/jobs.rs (the instances' side) and src/worker.rs (the workers').
CREATE TABLE engine_jobs (
    id           BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind         TEXT        NOT NULL CHECK (kind IN ('reply', 'hint')),
    game_id      TEXT        NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    -- The game's ply the job is for: a reply is applied only while the game is still there.
    ply          BIGINT      NOT NULL CHECK (ply >= 0),
    -- Who asked (the client address the engine's time is shared between).
    client       TEXT        NOT NULL,
    state        TEXT        NOT NULL DEFAULT 'queued'
                 CHECK (state IN ('queued', 'running', 'done', 'discarded', 'cancelled', 'failed')),
    -- Set by a takeback, a resignation or a hint nobody waits for; a running search sees it.
    cancelled    BOOLEAN     NOT NULL DEFAULT FALSE,
    worker       TEXT,
    leased_until TIMESTAMPTZ,
    attempts     INTEGER     NOT NULL DEFAULT 0,
    queued_at    TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    picked_at    TIMESTAMPTZ,
    finished_at  TIMESTAMPTZ,
    best_move    TEXT,
    score        INTEGER
);

-- One live reply per game and ply, whichever instance asks for it.
CREATE UNIQUE INDEX engine_jobs_one_reply ON engine_jobs (game_id, ply)
    WHERE kind = 'reply' AND state IN ('queued', 'running') AND NOT cancelled;
CREATE INDEX engine_jobs_open ON engine_jobs (id) WHERE state IN ('queued', 'running');
CREATE INDEX engine_jobs_by_client ON engine_jobs (client, id);
CREATE INDEX engine_jobs_by_game ON engine_jobs (game_id) WHERE state IN ('queued', 'running');
CREATE INDEX engine_jobs_finished ON engine_jobs (finished_at);
