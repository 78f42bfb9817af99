//! FIDE TRF (placeholder until the loader lands).
use crate::diag::{Diag, Source};
use crate::model::Event;

/// Load a TRF event.
pub fn load_trf(source: &Source) -> Result<Event, Diag> {
    Err(Diag::error("tb::load::unsupported", "TRF loader not built yet").in_source(source))
}
