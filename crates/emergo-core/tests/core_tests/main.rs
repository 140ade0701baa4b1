//! emergo-core's integration tests, one test binary (`cargo test --workspace --test
//! core_tests`): the rules against RULES.md, records, properties over random games, and the
//! committed test data (tests/data).

mod properties;
mod records;
mod rules;
mod testdata;
mod variants;
