//! Integration tests: one binary (each test binary links all of Bevy).

mod apps;
mod loaders;
mod saves;
mod table_play;
