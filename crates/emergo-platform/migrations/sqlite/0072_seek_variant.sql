-- Issue 20, item 4: the board a seek's game is played on (`emergo`, `7x7`, `hex`: the short
-- names of emergo_core::VariantKind); every seek made before it is Emergo's 9x9 board.
ALTER TABLE seeks ADD COLUMN variant TEXT NOT NULL DEFAULT 'emergo';
