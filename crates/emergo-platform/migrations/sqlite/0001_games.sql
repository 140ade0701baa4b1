-- Games and their moves. A seat's token and a game's invitation code are stored only as
-- SHA-256 hashes; the moves table's primary key (game_id, ply) makes a second move for one ply
-- impossible to store.
CREATE TABLE games (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT    NOT NULL UNIQUE,
    mode        TEXT    NOT NULL CHECK (mode IN ('engine', 'human', 'imported')),
    level       INTEGER CHECK (level IS NULL OR level BETWEEN 1 AND 10),
    white_kind  TEXT    NOT NULL CHECK (white_kind IN ('human', 'engine')),
    black_kind  TEXT    NOT NULL CHECK (black_kind IN ('human', 'engine')),
    white_token TEXT,
    black_token TEXT,
    invite      TEXT,
    start       TEXT    NOT NULL,
    tags        TEXT    NOT NULL DEFAULT '[]',
    ply         INTEGER NOT NULL DEFAULT 0,
    result      TEXT    CHECK (result IS NULL OR result IN ('1-0', '0-1', '1/2-1/2')),
    reason      TEXT,
    draw_offer  TEXT    CHECK (draw_offer IS NULL OR draw_offer IN ('white', 'black')),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);

CREATE INDEX games_by_status ON games ((result IS NULL), seq);

CREATE TABLE moves (
    game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL CHECK (ply >= 0),
    move    TEXT    NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
