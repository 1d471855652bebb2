//! `cargo test` for the addon's pacer: the addon crate's own test binary cannot link outside Node (napi symbols),
//! so its pacer and clock, which use neither napi nor quinn, are compiled here on their own, from the same files.

#[path = "../src/clock.rs"]
pub mod clock;
#[path = "../src/pacer.rs"]
pub mod pacer;
