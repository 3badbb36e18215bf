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

impl Ask {
    /// The changes to an existing task a message may ask for (a new task is a capture, not one
    /// of these).
    pub const CHANGES: [Ask; 6] = [
        Ask::Done,
        Ask::Move,
        Ask::Snooze,
        Ask::Cancel,
        Ask::Rename,
        Ask::Change,
    ];
}
