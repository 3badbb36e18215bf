//! Opaque ids for the records Donna creates: a short kind prefix and 64 random bits in hex
//! ("tsk_3f9a0c1e5b7d2a44"). Channel-given ids (a Discord thread id) are used as they are.

use rand::Rng;

pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{:016x}", rand::thread_rng().gen::<u64>())
}
