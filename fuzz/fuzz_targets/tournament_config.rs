//! The tournament configuration reader fed arbitrary TOML: it never panics, and whatever it
//! accepts is a tournament that can be run (two engines or more, formats with their rounds).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen::tournament::Config;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(config) = Config::parse(&text) {
        assert!(config.engines.len() >= 2, "accepted {text:?}");
    }
});
