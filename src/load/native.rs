//! Native TOML and JSON event format (placeholder until the loader lands).
use crate::diag::{Diag, Source};
use crate::model::Event;

/// Load a native TOML event.
pub fn load_toml(source: &Source) -> Result<Event, Diag> {
    Err(Diag::error("tb::load::unsupported", "native TOML loader not built yet").in_source(source))
}
/// Load a native JSON event.
pub fn load_json(source: &Source) -> Result<Event, Diag> {
    Err(Diag::error("tb::load::unsupported", "native JSON loader not built yet").in_source(source))
}
