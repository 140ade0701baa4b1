-- Issue 23: a mini-match's second game is made when its first ends, by whichever instance
-- sees it first; a pair meets once a round with the same colours, so this key lets exactly one
-- of them store it.
CREATE UNIQUE INDEX tournament_games_once ON tournament_games (tournament_id, round, white_id, black_id);
