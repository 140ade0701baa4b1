-- Issue 18: the chat of games between people (src/chat.rs; docs/api.md "Chat"). Two rooms a
-- game: `players` (the two seat holders only) and `spectators` (signed-in watchers; the players
-- once the game is over). `author` is the account's name as it was (NULL: an anonymous seat,
-- shown by its colour); `client` the address it came from.
CREATE TABLE chat_messages (
    id         BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    room       TEXT    NOT NULL CHECK (room IN ('players', 'spectators')),
    seat       TEXT    CHECK (seat IS NULL OR seat IN ('white', 'black')),
    account_id BIGINT  REFERENCES accounts (id),
    author     TEXT,
    body       TEXT    NOT NULL,
    client     TEXT,
    created_at TEXT    NOT NULL
);

CREATE INDEX chat_messages_by_game ON chat_messages (game_id, room, id);

-- A report of a message, by whom (`reporter`: `seat:white`, `account:12`; one report each),
-- what (the message, its text as it was) and when; read with SQL (docs/api.md "Chat").
CREATE TABLE chat_reports (
    id         BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message_id BIGINT  NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
    game_id    TEXT    NOT NULL,
    reporter   TEXT    NOT NULL,
    account_id BIGINT  REFERENCES accounts (id),
    body       TEXT    NOT NULL,
    client     TEXT,
    created_at TEXT    NOT NULL,
    UNIQUE (message_id, reporter)
);
