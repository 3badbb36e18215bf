//! The kinds of action a message may ask for, as grounding tells them apart.

/// A kind of action a message may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ask {
    /// It is done.
    Done,
    /// Another time.
    Move,
    /// Not now, for a while.
    Snooze,
    /// It will not be done.
    Cancel,
    /// Its title should say something else.
    Rename,
    /// A new task.
    Create,
    /// Its priority, domain or description.
    Change,
}
