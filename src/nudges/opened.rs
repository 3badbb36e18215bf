//! A nudge once recorded: `NudgeOpened` (one task's nudge), `Opened` (a message: one task's
//! nudge, or a grouped one listing several), and telling the event stream about them.
//!
//! Invariant: publish only once the nudge is committed; a `nudge` event per task, then
//! Donna's one `message` in the chat.

use crate::conversation::Channel;
use crate::events::{EventBus, Payload};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NudgeOpened {
    pub task_id: String,
    /// This nudge's id (`conversation::nudge_records`): buttons under it name it.
    pub nudge_id: String,
    pub thread_id: String,
    pub channel: Channel,
    pub text: String,
    /// False when the task's open thread was reused.
    pub created: bool,
}

impl NudgeOpened {
    /// Tells the event stream: a `nudge` event, then Donna's `message` in the thread. Call it
    /// only once the nudge is committed. Returns the two events' sequences.
    pub fn publish(&self, events: &EventBus) -> [u64; 2] {
        [self.publish_nudge(events), self.publish_message(events)]
    }

    /// The `nudge` event about this task.
    fn publish_nudge(&self, events: &EventBus) -> u64 {
        events.publish(Payload::Nudge {
            task_id: self.task_id.clone(),
            thread_id: self.thread_id.clone(),
            text: self.text.clone(),
            channel: self.channel.as_str().to_string(),
        })
    }

    /// Donna's `message` in the thread.
    fn publish_message(&self, events: &EventBus) -> u64 {
        events.publish(Payload::Message {
            thread_id: self.thread_id.clone(),
            text: self.text.clone(),
        })
    }
}

/// A nudge message recorded: one task's, or a grouped one listing several.
#[derive(Debug, Clone)]
pub enum Opened {
    One(NudgeOpened),
    Group(Vec<NudgeOpened>),
}

impl Opened {
    /// Each task's nudge (a grouped one's share its thread and text).
    pub fn nudges(&self) -> &[NudgeOpened] {
        match self {
            Opened::One(nudge) => std::slice::from_ref(nudge),
            Opened::Group(nudges) => nudges,
        }
    }

    /// Tells the event stream once committed: a `nudge` event per task, then Donna's one
    /// `message` in the chat.
    pub fn publish(&self, events: &EventBus) {
        let nudges = self.nudges();
        for nudge in nudges {
            nudge.publish_nudge(events);
        }
        if let Some(first) = nudges.first() {
            first.publish_message(events);
        }
    }
}
