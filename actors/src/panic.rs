//! Turning a caught panic payload into the text recorded as an actor's last failure.

use std::any::Any;

/// The panic message when it is a string, else a fixed description.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&'static str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}
