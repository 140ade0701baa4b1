use super::*;

fn search_depth(text: &str, depth: u32) -> FullResult {
    let game = Game::new(text.parse::<Position>().unwrap());
    let tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    search(
        &game,
        &Limits::depth(depth),
        &SearchOptions::default(),
        &tt,
        &stop,
        &mut |_| {},
    )
}

#[test]
fn placeholder_search_runs() {
    let r = search_depth("W:12:12", 3);
    assert!(r.result.best.is_some());
}
